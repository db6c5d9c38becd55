# Compiler settings shared by every target of the project: warnings, sanitizers, ccache.

find_program(WEBDATA_CCACHE ccache)
if(WEBDATA_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${WEBDATA_CCACHE}")
endif()

add_library(webdata_warnings INTERFACE)
target_compile_options(webdata_warnings INTERFACE -Wall -Wextra -Wpedantic)
if(WEBDATA_WERROR)
  target_compile_options(webdata_warnings INTERFACE -Werror)
endif()

# Every function and datum in a section of its own, and programs linked with --gc-sections: a
# program keeps only the code it calls. The SDK is one static library whose clients grew with
# every endpoint; without this, sdk_bench carried 2.5 MB of SDK code for the few calls it makes
# (0.45 MB with it) and started 0.4 MiB larger. The installed library is built the same way, so
# a consumer that links with --gc-sections gets the same.
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
  add_compile_options(-ffunction-sections -fdata-sections)
  add_link_options(LINKER:--gc-sections)
endif()

if(WEBDATA_SANITIZE)
  string(REPLACE "," ";" _webdata_sanitizers "${WEBDATA_SANITIZE}")
  foreach(_s IN LISTS _webdata_sanitizers)
    if(NOT _s MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "WEBDATA_SANITIZE: unknown sanitizer '${_s}' (address, undefined, thread)")
    endif()
  endforeach()
  if("thread" IN_LIST _webdata_sanitizers AND "address" IN_LIST _webdata_sanitizers)
    message(FATAL_ERROR "WEBDATA_SANITIZE: thread cannot be combined with address")
  endif()
  add_compile_options(-fsanitize=${WEBDATA_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${WEBDATA_SANITIZE})
  if("undefined" IN_LIST _webdata_sanitizers AND NOT WEBDATA_UBSAN_VPTR)
    # UBSan's vptr check (dynamic types of polymorphic objects) is its costliest to compile on
    # Boost.Beast's templates (11% of those units) and has found nothing here; ASan still sees
    # a use of a freed object. -DWEBDATA_UBSAN_VPTR=ON puts it back (docs/adr/0027).
    add_compile_options(-fno-sanitize=vptr)
  endif()
  if("undefined" IN_LIST _webdata_sanitizers AND NOT WEBDATA_UBSAN_NULL_ALIGNMENT)
    # UBSan's null and alignment checks instrument every member access and reference binding:
    # together a quarter of the compile time of the Beast and Asio units (mockserver/http, the
    # SDK's WebSocket client, the conformance suite). A null dereference is still a SEGV that
    # ASan reports with its stack; -DWEBDATA_UBSAN_NULL_ALIGNMENT=ON puts them back
    # (docs/adr/0029).
    add_compile_options(-fno-sanitize=null,alignment)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND "address" IN_LIST _webdata_sanitizers)
    # GCC 12's flow analysis gives false maybe-uninitialized warnings inside libstdc++
    # (std::function in std::regex) once ASan instruments it; -Werror would stop the build on them.
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
  if("thread" IN_LIST _webdata_sanitizers AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 warns that std::atomic_thread_fence (used by Boost.Asio) is not instrumented;
    # that is Asio's business, not a finding, and -Werror would stop every TSan build on it.
    add_compile_options(-Wno-tsan)
  endif()
endif()

# Test code: a target whose sources sit in a tests directory, or named webdata_*_tests.
function(_webdata_is_test_code target out)
  get_target_property(dir ${target} SOURCE_DIR)
  if(dir MATCHES "/tests(/|$)" OR target MATCHES "^webdata_.*_tests$")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# Adds a target's warnings without leaking them to consumers of installed targets. Under
# address,undefined the tests' own code is compiled without UBSan's checks (they doubled its
# compile time; the product code they call is checked: docs/adr/0026-sanitizers-on-product-code.md).
# Under any sanitizer (the test command's builds) the tests' own code is not optimised: -O0
# compiles their Catch2 units a fifth faster than -Og, and the product code they drive keeps the
# build's level (docs/adr/0028-test-code-unoptimised.md).
function(webdata_target_defaults target)
  target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:webdata_warnings>)
  _webdata_is_test_code(${target} is_test)
  if(NOT is_test)
    return()
  endif()
  if("undefined" IN_LIST _webdata_sanitizers AND NOT WEBDATA_UBSAN_TEST_CODE)
    target_compile_options(${target} PRIVATE -fno-sanitize=undefined)
  endif()
  if(_webdata_sanitizers AND WEBDATA_TEST_CODE_O0)
    target_compile_options(${target} PRIVATE -O0)
  endif()
endfunction()
