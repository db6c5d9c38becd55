# "sdk: codegen ...": runs webdata_codegen MODE on IN and, with EXPECTED, fails unless it
# succeeds and writes exactly that file; without EXPECTED, the test's PASS_REGULAR_EXPRESSION
# checks the refusal it prints.
#   cmake -DTOOL=... -DMODE=fields|enums -DIN=... -DOUT=... [-DEXPECTED=...] -P codegen_check.cmake
execute_process(COMMAND ${TOOL} ${MODE} ${IN} ${OUT} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT DEFINED EXPECTED)
  message("exit ${rc}: ${err}")
  if(rc EQUAL 0)
    message(FATAL_ERROR "the generator accepted ${IN}")
  endif()
  return()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the generator refused ${IN}: ${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${EXPECTED} RESULT_VARIABLE differ)
if(differ)
  file(READ ${OUT} written)
  message(FATAL_ERROR "${OUT} differs from ${EXPECTED}; it holds:\n${written}")
endif()
