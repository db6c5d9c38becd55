# Runs the whole suite against webdata-mock started like a self-hosted deployment (the faults and
# mock arguments of EXPECTED, a JSON file; no keys, secret or admin surface known to the suite) and
# passes only when
#   - the verdict of every rule is the one EXPECTED names (passed, failed, or skipped naming the
#     capability), and no rule is missing from EXPECTED;
#   - no failure names no rule;
#   - the JUnit report agrees with the summary line: one <testcase> per case, a <skipped message>
#     with a capability reason per skipped case, one <failure> per failed case, and the target as
#     hostname.
#   cmake -DSUITE=... -DMOCK=... -DEXPECTED=deployment_verdicts.json -DWORK=dir -P deployment_check.cmake
foreach(var SUITE MOCK EXPECTED WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "deployment_check.cmake: ${var} is not set")
  endif()
endforeach()

file(READ "${EXPECTED}" expected)
set(args --spawn-mock "${MOCK}" --mock-as-deployment)
string(JSON count LENGTH "${expected}" mockArgs)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON arg GET "${expected}" mockArgs ${i})
  list(APPEND args "--mock-arg=${arg}")
endforeach()
string(JSON count LENGTH "${expected}" faults)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON fault GET "${expected}" faults ${i})
  list(APPEND args --mock-fault "${fault}")
endforeach()

file(MAKE_DIRECTORY "${WORK}")
set(junit "${WORK}/deployment-junit.xml")
set(verdicts "${WORK}/deployment-verdicts.json")
file(REMOVE "${junit}" "${verdicts}")
execute_process(
  COMMAND ${SUITE} ${args} --junit "${junit}" --verdicts "${verdicts}"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
message("${out}")

# A deployment with defects fails (exit 1), with a report; anything else is a broken run.
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "expected exit 1 (failed rules), got ${rc}; stderr:\n${err}")
endif()
if(NOT EXISTS "${verdicts}" OR NOT EXISTS "${junit}")
  message(FATAL_ERROR "no --verdicts or --junit file written; stderr:\n${err}")
endif()
file(READ "${verdicts}" actual)

set(problems "")
string(JSON expected_count LENGTH "${expected}" rules)
string(JSON actual_count LENGTH "${actual}" rules)
if(NOT expected_count EQUAL actual_count)
  string(APPEND problems "  ${actual_count} rules reported, ${expected_count} expected: "
                         "update ${EXPECTED}\n")
endif()
math(EXPR last "${actual_count} - 1")
foreach(i RANGE ${last})
  string(JSON id MEMBER "${actual}" rules ${i})
  string(JSON verdict GET "${actual}" rules ${id} verdict)
  string(JSON want ERROR_VARIABLE missing GET "${expected}" rules ${id})
  if(missing)
    string(APPEND problems "  ${id}: ${verdict}, but ${EXPECTED} names no verdict for it\n")
    continue()
  endif()
  string(JSON reasons GET "${actual}" rules ${id} reasons)
  if(want MATCHES "^skipped: (.+)$")
    set(capability "${CMAKE_MATCH_1}")
    if(NOT verdict STREQUAL "skipped")
      string(APPEND problems "  ${id}: ${verdict}, expected skipped (capability ${capability})\n")
      continue()
    endif()
    string(JSON reason_count LENGTH "${reasons}")
    math(EXPR reason_last "${reason_count} - 1")
    foreach(r RANGE ${reason_last})
      string(JSON reason GET "${reasons}" ${r})
      string(FIND "${reason}" "capability ${capability}: " at)
      if(NOT at EQUAL 0)
        string(APPEND problems "  ${id}: skipped for \"${reason}\", expected capability ${capability}\n")
      endif()
    endforeach()
  elseif(NOT verdict STREQUAL want)
    string(APPEND problems "  ${id}: ${verdict}, expected ${want} (${reasons})\n")
  endif()
endforeach()
string(JSON unnamed GET "${actual}" failuresNamingNoRule)
if(NOT unnamed STREQUAL "[]")
  string(APPEND problems "  failures naming no rule: ${unnamed}\n")
endif()

# The summary line, the verdicts file and the JUnit report count the same cases.
if(NOT out MATCHES "\n([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped")
  message(FATAL_ERROR "no summary line; stderr:\n${err}")
endif()
set(passed ${CMAKE_MATCH_1})
set(failed ${CMAKE_MATCH_2})
set(skipped ${CMAKE_MATCH_3})
math(EXPR cases "${passed} + ${failed} + ${skipped}")
foreach(kind passed failed skipped)
  string(JSON n GET "${actual}" summary ${kind})
  if(NOT n EQUAL ${kind})
    string(APPEND problems "  --verdicts counts ${n} ${kind}, the summary line ${${kind}}\n")
  endif()
endforeach()
file(READ "${junit}" xml)
string(REPLACE ";" "," xml "${xml}")  # a ';' inside a match would split it in two list items
string(REGEX MATCHALL "<testcase " testcases "${xml}")
string(REGEX MATCHALL "<skipped message=\"capability [^\"]+\"/>" skips "${xml}")
string(REGEX MATCHALL "<failure message=\"rule [A-Z0-9-]+: " failures "${xml}")
list(LENGTH testcases n_cases)
list(LENGTH skips n_skips)
list(LENGTH failures n_failures)
if(NOT n_cases EQUAL cases OR NOT n_skips EQUAL skipped OR NOT n_failures EQUAL failed)
  string(APPEND problems "  JUnit: ${n_cases} testcases, ${n_skips} skipped with a capability, "
                         "${n_failures} failures naming a rule; the summary: ${cases} cases, "
                         "${skipped} skipped, ${failed} failed\n")
endif()
if(NOT xml MATCHES "<testsuite [^>]*hostname=\"http://127\\.0\\.0\\.1:[0-9]+\" tests=\"${cases}\" failures=\"${failed}\" errors=\"0\" skipped=\"${skipped}\"")
  string(APPEND problems "  JUnit: the testsuite element does not carry the target and the counts\n")
endif()

if(NOT problems STREQUAL "")
  message(FATAL_ERROR "verdicts differ from ${EXPECTED}:\n${problems}")
endif()
message(STATUS "every rule has the expected verdict (${passed} passed, ${failed} failed, ${skipped} skipped cases)")
