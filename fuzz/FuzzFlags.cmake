# WEBDATA_FUZZ: every target of the project is compiled with libFuzzer's coverage
# instrumentation plus ASan and UBSan, so a fuzz target finds bugs in the code it calls, not only
# in itself. Included from the top-level CMakeLists.txt before any target is defined.
if(WEBDATA_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "WEBDATA_FUZZ needs clang (libFuzzer): configure with "
                        "-DCMAKE_CXX_COMPILER=clang++, or run scripts/fuzz.sh")
  endif()
  if(WEBDATA_SANITIZE)
    message(FATAL_ERROR "WEBDATA_FUZZ brings its own sanitizers (address,undefined); "
                        "leave WEBDATA_SANITIZE empty")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
