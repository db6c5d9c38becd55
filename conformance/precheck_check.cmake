# The precheck stops a run that cannot succeed with one message naming the cause, before any test
# case (exit 3), within 10 s:
#   1. a deployment with authentication on and no key given ("needs an API key");
#   2. a deployment that cannot fetch the runner's test site (webdata-mock without --live-fetch),
#      also with the JUnit report holding the one precheck error; the advice is the cause's own:
#      the mock's two flags or --spawn-mock, nothing about --site-host or top-level domains.
#   cmake -DSUITE=... -DMOCK=... -DWORK=dir -P precheck_check.cmake
foreach(var SUITE MOCK WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "precheck_check.cmake: ${var} is not set")
  endif()
endforeach()
file(MAKE_DIRECTORY "${WORK}")

function(expect_stop name expected_text)
  string(TIMESTAMP started "%s" UTC)
  execute_process(
    COMMAND ${SUITE} --spawn-mock "${MOCK}" --mock-as-deployment ${ARGN}
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  string(TIMESTAMP ended "%s" UTC)
  math(EXPR took "${ended} - ${started}")
  message("${name}: exit ${rc} after about ${took} s\n${err}")
  if(NOT rc EQUAL 3)
    message(FATAL_ERROR "${name}: expected exit 3 (precheck), got ${rc}\n${out}")
  endif()
  # Whole seconds: 10 s measured is at most 10.99 s.
  if(took GREATER 10)
    message(FATAL_ERROR "${name}: the precheck took ${took} s, more than 10")
  endif()
  string(FIND "${err}" "stopped before any test case: ${expected_text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${name}: no message \"${expected_text}\"")
  endif()
  foreach(want IN LISTS EXPECT_TEXT)
    string(FIND "${err}" "${want}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${name}: the message does not say \"${want}\"")
    endif()
  endforeach()
  foreach(unwanted IN LISTS REFUSE_TEXT)
    string(FIND "${err}" "${unwanted}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${name}: the message says \"${unwanted}\", which is not its cause")
    endif()
  endforeach()
  string(REGEX MATCHALL "stopped before any test case" stops "${err}")
  list(LENGTH stops n)
  if(NOT n EQUAL 1 OR out MATCHES "passed, [0-9]+ failed")
    message(FATAL_ERROR "${name}: expected one message and no test case\n${out}")
  endif()
endfunction()

expect_stop("authentication on, no key" "the target needs an API key."
            --mock-arg=--live-fetch --mock-arg=--allow-private-targets)

set(junit "${WORK}/precheck-junit.xml")
file(REMOVE "${junit}")
set(EXPECT_TEXT "live fetching is off" "--live-fetch --allow-private-targets" "--spawn-mock")
set(REFUSE_TEXT "--site-host" "top-level domain")
expect_stop("live fetching off" "the target cannot fetch this runner's test site."
            --mock-fault no-auth --junit "${junit}")
file(READ "${junit}" xml)
if(NOT xml MATCHES "tests=\"1\" failures=\"0\" errors=\"1\"" OR
   NOT xml MATCHES "<error message=\"webdata-conformance: stopped before any test case: the target cannot fetch")
  message(FATAL_ERROR "the JUnit report does not hold the precheck error:\n${xml}")
endif()
message(STATUS "the precheck stopped both runs with the cause")
