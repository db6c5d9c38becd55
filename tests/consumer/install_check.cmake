# cmake --install BUILD_DIR into PREFIX, then check that every part of the package is there.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${out}\n${err}")
endif()
include(GNUInstallDirs)  # the same relative directories as the project
set(expected
  ${CMAKE_INSTALL_INCLUDEDIR}/webdata/webdata.hpp
  ${CMAKE_INSTALL_INCLUDEDIR}/webdata/v1/client.hpp
  ${CMAKE_INSTALL_INCLUDEDIR}/webdata/contract/schemas.hpp
  ${CMAKE_INSTALL_INCLUDEDIR}/webdata-mock/app/mock_server.hpp
  ${CMAKE_INSTALL_INCLUDEDIR}/webdata-mock/app/version.hpp
  ${CMAKE_INSTALL_INCLUDEDIR}/webdata-mock/http/server.hpp
  ${CMAKE_INSTALL_LIBDIR}/libwebdata.a
  ${CMAKE_INSTALL_LIBDIR}/libwebdata_mock.a
  ${CMAKE_INSTALL_LIBDIR}/libwebdata_mock_content.a
  ${CMAKE_INSTALL_LIBDIR}/cmake/webdata/webdataConfig.cmake
  ${CMAKE_INSTALL_LIBDIR}/cmake/webdata/webdataConfigVersion.cmake
  ${CMAKE_INSTALL_LIBDIR}/cmake/webdata/webdata-targets.cmake
  ${CMAKE_INSTALL_LIBDIR}/cmake/webdata/webdata-contract-targets.cmake
  ${CMAKE_INSTALL_LIBDIR}/cmake/webdata/webdata-mock-targets.cmake
  ${CMAKE_INSTALL_LIBDIR}/pkgconfig/webdata-sdk.pc
  ${CMAKE_INSTALL_BINDIR}/webdata
  ${CMAKE_INSTALL_BINDIR}/webdata-mock
  ${CMAKE_INSTALL_BINDIR}/webdata-conformance
  ${CMAKE_INSTALL_DATADIR}/webdata/schemas/v2/scrape.request.json
  ${CMAKE_INSTALL_DATADIR}/webdata/fixtures/web/mappings/docs.example.test.json
  ${CMAKE_INSTALL_DATADIR}/webdata/fixtures/web/synthetic.json
  ${CMAKE_INSTALL_DATADIR}/doc/webdata/getting-started.md)
set(missing "")
foreach(f IN LISTS expected)
  if(NOT EXISTS "${PREFIX}/${f}")
    list(APPEND missing "${f}")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "not installed:\n  ${missing}")
endif()
# No file of the package may point back into the build or source tree, except the mock's
# compiled-in source fixture fallback (a path, not a file the package needs).
file(GLOB_RECURSE cmake_files "${PREFIX}/*.cmake" "${PREFIX}/*.pc")
foreach(f IN LISTS cmake_files)
  file(READ "${f}" text)
  if(text MATCHES "${BUILD_DIR}")
    message(FATAL_ERROR "${f} refers to the build tree ${BUILD_DIR}")
  endif()
endforeach()
list(LENGTH expected n)
message(STATUS "installed into ${PREFIX}: all ${n} expected files present")

# pkg-config must not force a language version on its consumers.
file(READ "${PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/webdata-sdk.pc" pc)
if(pc MATCHES "-std=")
  message(FATAL_ERROR "webdata-sdk.pc forces a language version:\n${pc}")
endif()

# --strip also drops the static libraries' debug information (WebdataInstall.cmake).
set(stripped "${PREFIX}-stripped")
file(REMOVE_RECURSE "${stripped}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${stripped}" --strip
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install --strip failed (${rc}):\n${err}")
endif()
find_program(READELF readelf)
if(READELF)
  foreach(lib libwebdata.a libwebdata_mock.a)
    execute_process(COMMAND ${READELF} -S --wide "${stripped}/${CMAKE_INSTALL_LIBDIR}/${lib}"
                    OUTPUT_VARIABLE sections RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0 OR sections MATCHES "\\.debug_info")
      message(FATAL_ERROR "${lib} still has debug information after --strip")
    endif()
  endforeach()
endif()
file(SIZE "${PREFIX}/${CMAKE_INSTALL_LIBDIR}/libwebdata.a" full_size)
file(SIZE "${stripped}/${CMAKE_INSTALL_LIBDIR}/libwebdata.a" stripped_size)
message(STATUS "libwebdata.a: ${full_size} bytes installed, ${stripped_size} with --strip")
file(REMOVE_RECURSE "${stripped}")
