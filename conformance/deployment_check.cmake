# The judged verdicts as a test: runs the whole suite against webdata-mock started like the
# self-hosted deployment the verdicts were judged on (the mockArgs of EXPECTED; no keys, secret or
# admin surface known to the suite) and passes only when
#   - every rule gives the right verdict of the judged file (tests/data/real/conformance-verdicts-
#     self-hosted-2025-08.json), skips naming a capability, except the rules EXPECTED lists under
#     notCovered, each with the verdict the mock gives and why it cannot show the deployment's;
#   - a rule listed as not covered that the mock now gets right is reported (remove it from the
#     list), and every judged rule is a rule of the suite and the other way round;
#   - no rule passes without a check on it (the rule's `checks`), no failure names no rule, and no
#     case names a rule without its tag;
#   - the JUnit report agrees with the summary line: one <testcase> per case, a <skipped message>
#     with a capability reason per skipped case, one <failure> per failed case, the target as
#     hostname.
#   cmake -DSUITE=... -DMOCK=... -DEXPECTED=deployment_verdicts.json -DSOURCE_DIR=... -DWORK=dir
#         -P deployment_check.cmake

include(${CMAKE_CURRENT_LIST_DIR}/verdicts_common.cmake)
require_defined(SUITE MOCK EXPECTED SOURCE_DIR WORK)

file(READ "${EXPECTED}" expected)
string(JSON judged_path GET "${expected}" judged)
file(READ "${SOURCE_DIR}/${judged_path}" judged)
set(args --spawn-mock "${MOCK}" --mock-as-deployment)
json_each(suite_args GET "${expected}" suiteArgs)
list(APPEND args ${suite_args})
json_each(mock_args GET "${expected}" mockArgs)
foreach(arg IN LISTS mock_args)
  list(APPEND args "--mock-arg=${arg}")
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
set(matched 0)
set(not_covered "")
json_each(ids MEMBER "${actual}" rules)
foreach(id IN LISTS ids)
  string(JSON verdict GET "${actual}" rules ${id} verdict)
  string(JSON reasons GET "${actual}" rules ${id} reasons)
  string(JSON right ERROR_VARIABLE unjudged GET "${judged}" rules ${id} right_verdict)
  string(JSON mock ERROR_VARIABLE unlisted GET "${expected}" notCovered ${id} mock)
  if(NOT unlisted)  # listed under notCovered
    list(APPEND not_covered "${id}")
    if(NOT verdict STREQUAL mock)
      string(APPEND problems "  ${id}: ${verdict}, but ${EXPECTED} says the mock gives ${mock} "
                             "(${reasons})\n")
    elseif(NOT unjudged AND verdict STREQUAL right)
      string(APPEND problems "  ${id}: ${verdict} as judged: remove it from notCovered\n")
    endif()
    continue()
  endif()
  if(unjudged)
    string(APPEND problems "  ${id}: ${verdict}, not judged: list it under notCovered with why\n")
    continue()
  endif()
  if(NOT verdict STREQUAL right)
    string(APPEND problems "  ${id}: ${verdict}, judged ${right} (${reasons})\n")
    continue()
  endif()
  if(verdict STREQUAL "skipped")
    json_each(reason_list GET "${actual}" rules ${id} reasons)
    foreach(reason IN LISTS reason_list)
      if(NOT reason MATCHES "^(capability [^ ]+: |needs [^ ]+, which is broken)")
        string(APPEND problems "  ${id}: skipped for \"${reason}\", not for a capability\n")
      endif()
    endforeach()
  endif()
  math(EXPR matched "${matched} + 1")
endforeach()
json_each(judged_ids MEMBER "${judged}" rules)
foreach(id IN LISTS judged_ids)
  string(JSON ignored ERROR_VARIABLE gone GET "${actual}" rules ${id})
  if(gone)
    string(APPEND problems "  ${id}: judged, but the suite has no such rule\n")
  endif()
endforeach()
check_run_report(problems "${actual}")

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
string(REGEX MATCHALL "<skipped message=\"(capability [^\"]+|needs [^\"]+)\"/>" skips "${xml}")
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

list(LENGTH not_covered n_not_covered)
string(REPLACE ";" ", " not_covered "${not_covered}")
report_problems("${problems}" "verdicts differ from the judged ones (${judged_path})"
                "${matched} rules give the judged verdict, ${n_not_covered} not covered by this "
                "mock (${not_covered}), each with why in ${EXPECTED} (${passed} passed, "
                "${failed} failed, ${skipped} skipped cases)")
