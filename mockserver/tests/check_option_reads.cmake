# The typed-requests check (docs/adr/0023-typed-requests.md), run by CTest:
#   cmake -DROOT=<mockserver dir> -P check_option_reads.cmake
# Request bodies are read in one place, the requests layer (mockserver/requests/), which decodes
# them into typed values; the scrape pipeline, the job engine, search and the routes read fields.
# A JSON read by key there (`.value("`, `.contains("`, `.at("`; path parameters, `params.at("`,
# are not JSON) fails this check, unless its file is in the list below with the number of such
# reads it has: files that read other JSON than a request. A count higher than the file's fails
# too (lower it: the list only shrinks), as does a listed file that no longer reads any.

cmake_minimum_required(VERSION 3.25)

set(justified
  "app/handlers/admin.cpp|22|the admin API's own bodies (settings, credits, clock), which no request schema describes"
  "app/handlers/browser_view.cpp|3|CDP messages over a browser session's WebSocket (JSON-RPC id, method, params, sessionId), which no request schema describes"
  "app/handlers/admin_mappings.cpp|11|WireMock stub mappings, which no request schema describes"
  "jobs/extract_jobs.cpp|8|the JSON Schema an extract carries (to merge the pages' answers) and the scraped documents"
  "jobs/site_map.cpp|3|a scraped page's metadata (its description)"
  "search/schema_fill.cpp|32|the JSON Schema an agent request carries (its keywords, walked to fill a result)")

if(NOT ROOT OR NOT IS_DIRECTORY "${ROOT}")
  message(FATAL_ERROR "check_option_reads: ROOT must name the mockserver directory")
endif()

# The layers that read typed requests, and the handlers and what they share (the configuration
# file is not a request).
file(GLOB_RECURSE sources RELATIVE "${ROOT}"
  "${ROOT}/scrape/*.cpp" "${ROOT}/scrape/*.hpp" "${ROOT}/jobs/*.cpp" "${ROOT}/jobs/*.hpp"
  "${ROOT}/search/*.cpp" "${ROOT}/search/*.hpp")
file(GLOB routes RELATIVE "${ROOT}" "${ROOT}/app/handlers/*.cpp" "${ROOT}/app/handlers/*.hpp"
  "${ROOT}/app/api_routes.*" "${ROOT}/app/services.*" "${ROOT}/app/answers.*"
  "${ROOT}/app/mock_server.*" "${ROOT}/app/validation.cpp")
list(APPEND sources ${routes})
list(FILTER sources EXCLUDE REGEX "(^|/)tests/")

set(problems "")
set(counted "")
foreach(source IN LISTS sources)
  file(STRINGS "${ROOT}/${source}" lines REGEX "\\.(value|contains|at)\\(\"")
  set(reads 0)
  foreach(line IN LISTS lines)
    string(REGEX MATCHALL "[A-Za-z0-9_]*\\.(value|contains|at)\\(\"" hits "${line}")
    foreach(hit IN LISTS hits)
      if(NOT hit MATCHES "^params\\.at")
        math(EXPR reads "${reads} + 1")
      endif()
    endforeach()
  endforeach()
  set(allowed 0)
  foreach(entry IN LISTS justified)
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 path)
    list(GET fields 1 count)
    if(path STREQUAL source)
      set(allowed ${count})
      list(APPEND counted "${path}")
    endif()
  endforeach()
  if(reads GREATER allowed)
    list(APPEND problems
      "${source}: ${reads} raw JSON read(s) by key (justified: ${allowed}), read the typed request (mockserver/requests/)")
  elseif(reads LESS allowed)
    list(APPEND problems "${source}: ${reads} raw JSON read(s), the list says ${allowed}: lower it")
  endif()
endforeach()
foreach(entry IN LISTS justified)
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 path)
  if(NOT path IN_LIST counted)
    list(APPEND problems "${path}: listed, but not a file this check reads: remove it from the list")
  endif()
endforeach()

list(LENGTH sources checked)
include(${CMAKE_CURRENT_LIST_DIR}/check_report.cmake)
check_report(check_option_reads "${checked}" problems "problem(s)"
             "request options read only through typed requests")
