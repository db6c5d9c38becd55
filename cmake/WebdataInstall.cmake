# Installation: headers, libraries, executables and data in GNUInstallDirs places, the CMake
# package `webdata` (webdataConfig.cmake, version file, exported targets webdata::sdk,
# webdata::contract, webdata::mock, webdata::webdata-mock) and the pkg-config file webdata-sdk.pc.
#
#   find_package(webdata 0.1 REQUIRED)                    # webdata::sdk
#   find_package(webdata 0.1 REQUIRED COMPONENTS contract) # also webdata::contract
#   find_package(webdata 0.1 REQUIRED COMPONENTS mock)    # also webdata::mock (in-process mock)
#
# The targets live in the subdirectories; install(TARGETS) of another directory's targets is
# allowed since CMake 3.13, which keeps every install rule of the package in this one file.

include(CMakePackageConfigHelpers)

set(WEBDATA_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/webdata"
    CACHE STRING "Where webdataConfig.cmake is installed, relative to the prefix")
set(WEBDATA_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/webdata")

# SDK: the library, its public headers and its export set.
install(TARGETS webdata_sdk EXPORT webdata-targets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/include/webdata
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
# ... and the public header the build writes (the enumerations, from sdk/include/webdata/enums.json).
install(FILES ${WEBDATA_SDK_GENERATED_INCLUDE}/webdata/enums.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/webdata)

# The mock as a library: its static parts, its headers under include/webdata-mock (they include
# each other as "app/...", "http/...", so the tree is kept), and the executable as an imported
# target for consumers' tests (add_test(COMMAND webdata::webdata-mock ...)).
if(TARGET webdata_mock)
  set(_webdata_mock_parts webdata_mock webdata_mock_core webdata_mock_http webdata_mock_content
      webdata_mock_web webdata_mock_formats webdata_mock_scrape webdata_mock_jobs webdata_mock_search
      webdata_mock_webhooks webdata_mock_requests)
  target_include_directories(webdata_mock INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/webdata-mock>)
  # A program linking the installed library finds the bundled virtual web here (the
  # webdata-mock executable finds it next to itself first; see default_web_root()).
  # Only config.cpp reads it, so only config.cpp gets it (the rest of the mock is not rebuilt).
  set_property(SOURCE ${PROJECT_SOURCE_DIR}/mockserver/app/config.cpp
    DIRECTORY ${PROJECT_SOURCE_DIR}/mockserver APPEND PROPERTY COMPILE_DEFINITIONS
    WEBDATA_INSTALL_FIXTURES="${CMAKE_INSTALL_FULL_DATADIR}/webdata/fixtures")
  foreach(_part core http requests content web formats scrape jobs search webhooks)
    set_target_properties(webdata_mock_${_part} PROPERTIES EXPORT_NAME mock_${_part})
  endforeach()
  install(TARGETS ${_webdata_mock_parts} webdata-mock EXPORT webdata-mock-targets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/mockserver/
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/webdata-mock
    FILES_MATCHING PATTERN "*.hpp"
    PATTERN "tests" EXCLUDE
    PATTERN "fixtures" EXCLUDE)
  install(FILES ${PROJECT_BINARY_DIR}/mockserver/generated/app/version.hpp
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/webdata-mock/app)
  install(EXPORT webdata-mock-targets NAMESPACE webdata::
    DESTINATION ${WEBDATA_INSTALL_CMAKEDIR} FILE webdata-mock-targets.cmake)
endif()

install(EXPORT webdata-targets NAMESPACE webdata::
  DESTINATION ${WEBDATA_INSTALL_CMAKEDIR} FILE webdata-targets.cmake)
# The contract library has its own export set: its public dependency on nlohmann/json must not
# become a requirement of find_package(webdata) for programs that only use the SDK.
if(TARGET webdata_contract)
  install(EXPORT webdata-contract-targets NAMESPACE webdata::
    DESTINATION ${WEBDATA_INSTALL_CMAKEDIR} FILE webdata-contract-targets.cmake)
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/webdataConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/webdataConfig.cmake
  INSTALL_DESTINATION ${WEBDATA_INSTALL_CMAKEDIR}
  PATH_VARS WEBDATA_INSTALL_DATADIR CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
# 0.x: a minor release may break the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/webdataConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/webdataConfig.cmake
  ${PROJECT_BINARY_DIR}/package/webdataConfigVersion.cmake
  DESTINATION ${WEBDATA_INSTALL_CMAKEDIR})

# pkg-config: relocatable (paths relative to the .pc file). A static libwebdata needs libcurl,
# libssl and libcrypto on the link line even without --static, so they are public requirements
# then. No -std in Cflags: the headers are C++17 and compile as C++20 too, and a -std of ours
# after the consumer's own would silently lower its language version.
file(RELATIVE_PATH WEBDATA_PC_PREFIX_FROM_PCDIR
  "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" WEBDATA_PC_PREFIX_FROM_PCDIR "${WEBDATA_PC_PREFIX_FROM_PCDIR}")
get_target_property(_webdata_sdk_type webdata_sdk TYPE)
if(_webdata_sdk_type STREQUAL "STATIC_LIBRARY")
  set(WEBDATA_PC_REQUIRES "libcurl libssl libcrypto")
  set(WEBDATA_PC_REQUIRES_PRIVATE "")
  set(WEBDATA_PC_LIBS_PRIVATE "")
  set(WEBDATA_PC_LIBS_EXTRA "-pthread")
else()
  set(WEBDATA_PC_REQUIRES "")
  set(WEBDATA_PC_REQUIRES_PRIVATE "libcurl libssl libcrypto")
  set(WEBDATA_PC_LIBS_PRIVATE "-pthread")
  set(WEBDATA_PC_LIBS_EXTRA "")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/webdata-sdk.pc.in
  ${PROJECT_BINARY_DIR}/package/webdata-sdk.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/webdata-sdk.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# `cmake --install --strip` strips executables and shared libraries but not static archives,
# which keep all their debug information (libwebdata.a of a RelWithDebInfo build: about 190 MB,
# 9.5 MB in Release). With --strip their debug sections go too; their symbols stay, so they
# link as before. This runs after every target is installed (CMP0082: rules in order).
if(CMAKE_STRIP)
  install(CODE "
    if(CMAKE_INSTALL_DO_STRIP)
      file(GLOB _webdata_archives
           \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/libwebdata*.a\")
      foreach(_archive IN LISTS _webdata_archives)
        execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug \"\${_archive}\"
                        RESULT_VARIABLE _rc)
        if(NOT _rc EQUAL 0)
          message(FATAL_ERROR \"strip --strip-debug \${_archive} failed\")
        endif()
      endforeach()
    endif()")
endif()

install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
  FILES_MATCHING PATTERN "*.md")

# SDK reference: `cmake --build <dir> --target docs` runs Doxygen over the public headers' ///
# comments into <dir>/docs/html. Warnings are errors, so an undocumented slip fails the build.
find_program(WEBDATA_DOXYGEN doxygen)
if(WEBDATA_BUILD_DOCS AND WEBDATA_DOXYGEN AND PROJECT_IS_TOP_LEVEL)
  set(WEBDATA_DOXYGEN_OUT ${PROJECT_BINARY_DIR}/docs)
  configure_file(${PROJECT_SOURCE_DIR}/docs/Doxyfile.in ${PROJECT_BINARY_DIR}/docs/Doxyfile @ONLY)
  add_custom_target(docs
    COMMAND ${WEBDATA_DOXYGEN} ${PROJECT_BINARY_DIR}/docs/Doxyfile
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "Doxygen: SDK reference in ${PROJECT_BINARY_DIR}/docs/html"
    VERBATIM)
  add_dependencies(docs webdata_sdk)  # webdata/enums.hpp is written by the SDK's build
endif()
