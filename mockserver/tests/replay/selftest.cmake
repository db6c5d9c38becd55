# The replay's verdicts on a small recording (selftest/): it passes with every difference
# declared, and fails, naming the cause, on an undeclared difference, on a pending declaration
# whose difference is gone, and on a difference declared twice.
#   cmake -DREPLAY=webdata-mock-replay -DDIR=selftest -DSITE=site -DWORK=dir -P selftest.cmake
foreach(var REPLAY DIR SITE WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "selftest.cmake: ${var} is not set")
  endif()
endforeach()
file(MAKE_DIRECTORY "${WORK}")
file(READ "${DIR}/declarations.json" good)

# Runs the replay with DECLARATIONS (JSON text); its exit code and output in RC and OUT.
function(replay declarations)
  file(WRITE "${WORK}/declarations.json" "${declarations}")
  execute_process(
    COMMAND "${REPLAY}" replay --recording "${DIR}/recording.json"
            --declarations "${WORK}/declarations.json" --site "${SITE}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(RC "${rc}" PARENT_SCOPE)
  set(OUT "${out}${err}" PARENT_SCOPE)
endfunction()

function(expect what code pattern)
  if(NOT RC EQUAL code OR NOT OUT MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: expected exit ${code} and /${pattern}/, got ${RC}:\n${OUT}")
  endif()
endfunction()

replay("${good}")
expect("every difference declared" 0 "3 exchanges: 1 same, 1 differ on purpose, 1 deployment conditions")

string(JSON undeclared REMOVE "${good}" declarations 0)
replay("${undeclared}")
expect("a difference left undeclared" 1 "undeclared: v1-scrape/no auth header: status: recorded 200, mock 401")

string(JSON stale SET "${good}" declarations 2 [=[{"id": "landed", "category": "pending",
  "fixedBy": "a branch that has landed", "what": "w", "reason": "r",
  "exchanges": ["v1-misc/CORS preflight"], "aspects": ["*"]}]=])
replay("${stale}")
expect("a pending entry whose difference is gone" 1
       "declaration 'landed' \\(pending\\) matches no difference of the plain replay any more: remove it \\(its fix has landed\\)")

string(JSON twice SET "${good}" declarations 2 [=[{"id": "again", "category": "decision",
  "imitatedBy": "no-auth", "what": "w", "reason": "r",
  "exchanges": ["v1-scrape/no auth header"], "aspects": ["status"]}]=])
replay("${twice}")
expect("a difference declared twice" 1 "status is declared twice, by 'no-auth' and 'again'")
message(STATUS "the replay passes a declared recording and fails the three broken declarations")
