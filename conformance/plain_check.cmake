# The suite against a freshly started webdata-mock (--spawn-mock: live fetching, admin surface,
# agent jobs). Passes only when every case ran and passed (none skipped, none stalled), every rule
# passed with at least one check made on it (the suite's own run shows no rule passes unchecked),
# no failure names no rule and every rule a case names is among its tags. Prints how long the run
# took.
#   cmake -DSUITE=... -DMOCK=... -DWORK=dir -P plain_check.cmake
include(${CMAKE_CURRENT_LIST_DIR}/verdicts_common.cmake)
require_defined(SUITE MOCK WORK)
file(MAKE_DIRECTORY "${WORK}")
set(verdicts "${WORK}/plain-verdicts.json")
file(REMOVE "${verdicts}")
string(TIMESTAMP started "%s" UTC)
execute_process(
  COMMAND ${SUITE} --spawn-mock "${MOCK}" --verdicts "${verdicts}"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
string(TIMESTAMP ended "%s" UTC)
math(EXPR took "${ended} - ${started}")
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the suite failed the plain mock (exit ${rc}); stderr:\n${err}")
endif()
file(READ "${verdicts}" actual)

set(problems "")
foreach(kind failed skipped stalled)
  string(JSON n GET "${actual}" summary ${kind})
  if(NOT n EQUAL 0)
    string(APPEND problems "  ${n} cases ${kind}: every case runs and passes against the mock\n")
  endif()
endforeach()
check_run_report(problems "${actual}" ALL_PASSED)
string(JSON count LENGTH "${actual}" rules)
string(JSON passed GET "${actual}" summary passed)
report_problems("${problems}" "the run against the plain mock"
                "${count} rules passed, each with checks, ${passed} cases in about ${took} s")
