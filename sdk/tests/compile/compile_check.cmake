# Compiles SOURCE with the public headers (INCLUDE: their directories) and checks the outcome, for properties of the
# API that only a compiler can test:
#   EXPECT=pass   the compiler must succeed
#   EXPECT=fail   it must fail, and its diagnostics must match REGEX (so that an unrelated error
#                 cannot pass for the expected one)
# FLAGS: extra compiler flags (a CMake list).
list(TRANSFORM INCLUDE PREPEND "-I")
execute_process(
  COMMAND ${CXX} ${FLAGS} -fsyntax-only ${INCLUDE} ${SOURCE}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(EXPECT STREQUAL "pass")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "expected ${SOURCE} to compile with ${FLAGS}; it did not:\n${out}\n${err}")
  endif()
elseif(EXPECT STREQUAL "fail")
  if(rc EQUAL 0)
    message(FATAL_ERROR "expected ${SOURCE} NOT to compile with ${FLAGS}; it did")
  endif()
  if(NOT "${out}${err}" MATCHES "${REGEX}")
    message(FATAL_ERROR "${SOURCE} failed to compile, but not with /${REGEX}/:\n${out}\n${err}")
  endif()
else()
  message(FATAL_ERROR "EXPECT must be pass or fail")
endif()
message(STATUS "${SOURCE} (${FLAGS}): ${EXPECT} as expected")
