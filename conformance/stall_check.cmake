# A job that makes no progress is reported as stalled, with its counters: never a wrong-state
# failure. An API stub of the mock (STUBS, a WireMock root) answers every v2 crawl status with the
# same running status, so the crawl of one case stalls: the run exits 1 with "1 stalled", the
# rules the case would have judged after the wait read "stalled", none reads "failed", and JUnit
# has the stall as an error.
#   cmake -DSUITE=... -DMOCK=... -DSTUBS=dir -DWORK=dir -P stall_check.cmake
include(${CMAKE_CURRENT_LIST_DIR}/verdicts_common.cmake)
require_defined(SUITE MOCK STUBS WORK)
file(MAKE_DIRECTORY "${WORK}")
set(verdicts "${WORK}/stall-verdicts.json")
set(junit "${WORK}/stall-junit.xml")
file(REMOVE "${verdicts}" "${junit}")
# --timeout-scale 0.2: a job stalls after 12 s without progress.
execute_process(
  COMMAND ${SUITE} --spawn-mock "${MOCK}" --mock-arg=--api-stubs "--mock-arg=${STUBS}"
          --timeout-scale 0.2 --verdicts "${verdicts}" --junit "${junit}"
          "crawl scope: children of the start path with the sitemap read and robots obeyed"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
message("${out}")
set(problems "")
if(NOT rc EQUAL 1)
  string(APPEND problems "  exit ${rc}, not 1; stderr: ${err}\n")
endif()
if(NOT out MATCHES "\n0 passed, 0 failed, 0 skipped, 1 stalled")
  string(APPEND problems "  the summary line does not count one stalled case\n")
endif()
if(NOT out MATCHES "STALLED: job stalled: GET /v2/crawl/")
  string(APPEND problems "  no STALLED warning\n")
endif()
file(READ "${verdicts}" actual)
string(JSON reason GET "${actual}" rules JOB-STATES reasons 0)
if(NOT reason MATCHES "^job stalled: GET /v2/crawl/[0-9a-f-]+ made no progress for 12 s \\(status scraping, completed 1, total 3, 0 documents\\)")
  string(APPEND problems "  the stall does not name the job and its counters: ${reason}\n")
endif()
json_each(ids MEMBER "${actual}" rules)
foreach(id IN LISTS ids)
  string(JSON verdict GET "${actual}" rules ${id} verdict)
  if(verdict STREQUAL "failed")
    string(APPEND problems "  ${id} failed for a job that only stalled\n")
  endif()
endforeach()
foreach(id JOB-STATES CRAWL-SCOPE)
  string(JSON verdict GET "${actual}" rules ${id} verdict)
  if(NOT verdict STREQUAL "stalled")
    string(APPEND problems "  ${id}: ${verdict}, not stalled\n")
  endif()
endforeach()
string(JSON start GET "${actual}" rules CRAWL-START verdict)
if(NOT start STREQUAL "passed")
  string(APPEND problems "  CRAWL-START, judged before the wait: ${start}\n")
endif()
file(READ "${junit}" xml)
if(NOT xml MATCHES "errors=\"1\"" OR NOT xml MATCHES "<error message=\"job stalled: [^\"]+\" type=\"stalled\"/>")
  string(APPEND problems "  JUnit does not report the stall as an error\n")
endif()
report_problems("${problems}" "a stalled job" "a stalled crawl is reported as stalled, not failed")
