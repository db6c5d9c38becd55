# "consumer: WEBDATA_BUILD_MOCK=OFF builds the SDK alone": configures the checkout with only that
# switch in a fresh build tree and asks Ninja what a build would do (-n: nothing is compiled),
# then fails if any step compiles or links something other than the SDK (sdk/), the files CMake
# generates for it and the SDK's own build tool (webdata_codegen, its field lists and enumerations).
#   cmake -DCHECKOUT=... -DBUILD_DIR=... -P sdk_only_check.cmake
foreach(var CHECKOUT BUILD_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "sdk_only_check.cmake: ${var} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE "${BUILD_DIR}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -S "${CHECKOUT}" -B "${BUILD_DIR}" -G Ninja -DWEBDATA_BUILD_MOCK=OFF
  RESULT_VARIABLE configured OUTPUT_VARIABLE configure_out ERROR_VARIABLE configure_out)
if(NOT configured EQUAL 0)
  message(FATAL_ERROR "configuring with WEBDATA_BUILD_MOCK=OFF failed:\n${configure_out}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} --build "${BUILD_DIR}" -- -n
                RESULT_VARIABLE planned OUTPUT_VARIABLE plan ERROR_VARIABLE plan)
if(NOT planned EQUAL 0)
  message(FATAL_ERROR "ninja -n failed:\n${plan}")
endif()

# Ninja's dry run prints one "[i/n] Building CXX object <dir>/CMakeFiles/<target>.dir/..." or
# "[i/n] Linking CXX static library <file>" line per step.
string(REGEX MATCHALL "\\[[0-9]+/[0-9]+\\] [^\n]*" steps "${plan}")
set(foreign "")
set(built "")
foreach(step IN LISTS steps)
  if(step MATCHES "Building CXX object ([^ ]+)")
    set(object "${CMAKE_MATCH_1}")
    if(NOT object MATCHES "^sdk/CMakeFiles/(webdata_sdk|webdata_codegen)\\.dir/")
      string(APPEND foreign "  ${step}\n")
    endif()
  elseif(step MATCHES "Linking CXX [a-z ]+ ([^ ]+)")
    list(APPEND built "${CMAKE_MATCH_1}")
    if(NOT CMAKE_MATCH_1 MATCHES "^sdk/(libwebdata\\.(a|so[.0-9]*)|webdata_codegen)$")
      string(APPEND foreign "  ${step}\n")
    endif()
  endif()
endforeach()
list(LENGTH steps count)
if(NOT built)
  message(FATAL_ERROR "the dry run links nothing: is the SDK built at all?\n${plan}")
endif()
if(foreign)
  message(FATAL_ERROR "WEBDATA_BUILD_MOCK=OFF builds more than the SDK:\n${foreign}")
endif()
message(STATUS "WEBDATA_BUILD_MOCK=OFF: ${count} steps, linking only ${built}")
