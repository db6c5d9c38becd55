# Runs the conformance suite (test cases matching TAGS) against webdata-mock started with
# --inject-fault FAULT. Passes only when the run fails (non-zero exit, "N failed" with N > 0)
# and the output names the rule EXPECT that the fault breaks.
#   cmake -DSUITE=... -DMOCK=... -DFAULT=repeat-skip -DTAGS=[chunking] -DEXPECT=CHUNK-NEXT-UNIQUE
#         -P fault_check.cmake
foreach(var SUITE MOCK FAULT TAGS EXPECT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "fault_check.cmake: ${var} is not set")
  endif()
endforeach()

execute_process(
  COMMAND ${SUITE} --spawn-mock ${MOCK} --mock-fault ${FAULT} ${TAGS}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
message("${out}")

if(rc EQUAL 0)
  message(FATAL_ERROR "the suite passed a mock with --inject-fault ${FAULT}")
endif()
if(NOT out MATCHES "([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped")
  message(FATAL_ERROR "no summary line (exit ${rc}); stderr:\n${err}")
endif()
if(CMAKE_MATCH_2 EQUAL 0)
  message(FATAL_ERROR "exit ${rc} but no failed test case; stderr:\n${err}")
endif()
string(FIND "${out}" "rule ${EXPECT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the failures do not name rule ${EXPECT}")
endif()
message(STATUS "--inject-fault ${FAULT}: the suite failed, naming rule ${EXPECT}")
