# Builds tests/consumer/app one way (MODE: package | subdirectory | fetchcontent) and runs it
# against a webdata-mock (MOCK). In package mode also: the mock component, pkg-config, and the
# installed mock's own data directory.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${BUILD_DIR}")
# What every configure of the app gets.
set(common -G "${GENERATOR}" -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=)
if(CCACHE)
  list(APPEND common -DCMAKE_CXX_COMPILER_LAUNCHER=${CCACHE})
endif()
# A sanitized build installs sanitized libraries: their consumers compile and link the same way.
# The subdirectory and FetchContent builds compile the SDK themselves, so they need no sanitizer
# to match anything (and are kept quick for the test command's budget).
set(sanitize_flags "")
if(SANITIZE AND MODE STREQUAL "package")
  set(sanitize_flags -fsanitize=${SANITIZE} -fno-omit-frame-pointer)
  list(APPEND common "-DCMAKE_CXX_FLAGS=-fsanitize=${SANITIZE} -fno-omit-frame-pointer"
       "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${SANITIZE}")
endif()
set(configure ${CMAKE_COMMAND} -S "${APP_DIR}" -B "${BUILD_DIR}" ${common}
    -DWEBDATA_CONSUMER_MODE=${MODE})
if(MODE STREQUAL "package")
  list(APPEND configure -DCMAKE_PREFIX_PATH=${PREFIX})
else()
  # Only the SDK: no mock, CLI, tests or examples; unity sources (a few large translation units
  # instead of one per file: the SDK in a fraction of the time); no precompiled header, so ccache
  # can share the objects between the subdirectory and the FetchContent builds.
  list(APPEND configure -DWEBDATA_SOURCE_DIR=${CHECKOUT} -DWEBDATA_BUILD_MOCK=OFF
       -DWEBDATA_BUILD_CLI=OFF -DWEBDATA_BUILD_EXAMPLES=OFF -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON
       -DCMAKE_UNITY_BUILD=ON -DFETCHCONTENT_FULLY_DISCONNECTED=ON)
endif()
# Debug info would put the build directory into ccache's hash.
set(ENV{CCACHE_NOHASHDIR} 1)
run("configure (${MODE})" ${configure})
run("build (${MODE})" ${CMAKE_COMMAND} --build "${BUILD_DIR}" -j 2)

run("consumer against ${MOCK}" bash "${WITH_MOCK}" "${MOCK}" -- "${BUILD_DIR}/consumer"
    https://docs.example.test/getting-started/quickstart)
if(NOT last_output MATCHES "title: Quickstart")
  message(FATAL_ERROR "unexpected consumer output:\n${last_output}")
endif()
message(STATUS "consumer (${MODE}):\n${last_output}")

if(MODE STREQUAL "package")
  # The installed mock finds its virtual web under the prefix, not in the source tree.
  run("installed webdata-mock --print-config" "${MOCK}" --print-config)
  if(NOT last_output MATCHES "\"bundledWebRoot\": \"${PREFIX}/share/webdata/fixtures/web\"")
    message(FATAL_ERROR "the installed mock does not use the installed fixtures:\n${last_output}")
  endif()
  # webdata::mock: the mock server in-process, in a program of one's own.
  run("mock_consumer" "${BUILD_DIR}/mock_consumer")
  if(NOT last_output MATCHES "in-process mock: Quickstart")
    message(FATAL_ERROR "unexpected mock_consumer output:\n${last_output}")
  endif()
  # The SDK alone needs neither nlohmann/json nor Boost (both compiled into libwebdata): a
  # C++20 program finds the package with them hidden.
  set(sdk_only_dir "${BUILD_DIR}-sdk-only")
  file(REMOVE_RECURSE "${sdk_only_dir}")
  run("configure (sdk-only, C++20)" ${CMAKE_COMMAND} -S "${APP_DIR}" -B "${sdk_only_dir}" ${common}
      -DWEBDATA_CONSUMER_MODE=sdk-only -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_CXX_STANDARD=20
      -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON)
  run("build (sdk-only, C++20)" ${CMAKE_COMMAND} --build "${sdk_only_dir}" --target consumer -j 2)
  run("sdk-only consumer" bash "${WITH_MOCK}" "${MOCK}" -- "${sdk_only_dir}/consumer"
      https://docs.example.test/getting-started/quickstart)
  if(NOT last_output MATCHES "title: Quickstart")
    message(FATAL_ERROR "unexpected output of the sdk-only build:\n${last_output}")
  endif()

  # pkg-config: plain compile and link of the same program, no CMake involved, as C++17 and as
  # C++20. The flags carry no -std of their own that would override the consumer's.
  if(PKG_CONFIG)
    set(ENV{PKG_CONFIG_PATH} "${PREFIX}/${LIBDIR}/pkgconfig")
    run("pkg-config" ${PKG_CONFIG} --cflags --libs webdata-sdk)
    string(STRIP "${last_output}" flags)
    if(flags MATCHES "-std=")
      message(FATAL_ERROR "pkg-config webdata-sdk forces a language version: ${flags}")
    endif()
    separate_arguments(flags UNIX_COMMAND "${flags}")
    foreach(std IN ITEMS 17 20)
      run("c++${std} with pkg-config flags" ${CXX} -std=c++${std} ${sanitize_flags}
          "${APP_DIR}/main.cpp" -o "${BUILD_DIR}/consumer_pc${std}" ${flags})
      run("consumer built with pkg-config (C++${std})" bash "${WITH_MOCK}" "${MOCK}" --
          "${BUILD_DIR}/consumer_pc${std}" https://docs.example.test/getting-started/quickstart)
      if(NOT last_output MATCHES "title: Quickstart")
        message(FATAL_ERROR "unexpected output of the pkg-config build (C++${std}):\n${last_output}")
      endif()
    endforeach()
  endif()
endif()
