# Proves that the two docs tests can fail: on a copy of schemas/ and docs/reference/, a changed
# default, an undocumented operation and a link to a missing heading must each be reported.
#   cmake -DREFGEN=... -DSOURCE_DIR=... -DWORK_DIR=... -P refgen_selftest.cmake
set(work "${WORK_DIR}")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}/docs")
file(COPY "${SOURCE_DIR}/schemas" DESTINATION "${work}" PATTERN "tests" EXCLUDE PATTERN "cpp" EXCLUDE)
file(COPY "${SOURCE_DIR}/docs/reference" DESTINATION "${work}/docs")
set(args --schemas "${work}/schemas" --pages "${work}/docs/reference")

function(expect what want_rc want_text)
  execute_process(COMMAND "${REFGEN}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL want_rc)
    message(FATAL_ERROR "${what}: exit ${rc}, expected ${want_rc}\n${out}${err}")
  endif()
  if(want_text AND NOT "${out}${err}" MATCHES "${want_text}")
    message(FATAL_ERROR "${what}: output lacks '${want_text}'\n${out}${err}")
  endif()
  message(STATUS "${what}: ok")
endfunction()

expect("the committed pages pass" 0 "matches schemas" ${args} --check)

# A default changes in a schema: the scrape page's table is stale until regenerated.
set(options "${work}/schemas/v2/scrape-options.json")
file(READ "${options}" text)
string(REPLACE "\"default\": 30000" "\"default\": 45000" changed "${text}")
if(changed STREQUAL text)
  message(FATAL_ERROR "v2/scrape-options.json has no \"default\": 30000 to change")
endif()
file(WRITE "${options}" "${changed}")
expect("a changed default is stale" 1 "out of date" ${args} --check)
expect("--write regenerates" 0 "" ${args} --write)
expect("and then passes" 0 "matches schemas" ${args} --check)
file(READ "${work}/docs/reference/scrape.md" page)
if(NOT page MATCHES "`45000`")
  message(FATAL_ERROR "--write did not put the new default into scrape.md")
endif()

# An operation no page lists.
set(openapi "${work}/schemas/openapi.v2.json")
file(READ "${openapi}" text)
string(REPLACE "\"paths\": {" "\"paths\": {\"/v2/extra\": {\"get\": {\"summary\": \"x\", \"responses\": {}}}," changed "${text}")
file(WRITE "${openapi}" "${changed}")
expect("an undocumented operation" 1 "GET /v2/extra" ${args} --check)

# Links: a good one, then a missing heading and a missing page, in markdown and in code. (The
# prefix is a variable so that the link test of the repository does not read these as links.)
set(ref "docs/reference/")
file(WRITE "${work}/good.md" "[chunks](${ref}jobs.md#chunking)\n")
file(WRITE "${work}/good.hpp" "// see ${ref}jobs.md#next.\n")
expect("good links" 0 "resolve" --pages "${work}/docs/reference" --links "${work}/good.md" "${work}/good.hpp")
file(WRITE "${work}/bad.md" "[chunks](${ref}jobs.md#no-such-heading)\n")
expect("a missing heading" 1 "no heading" --pages "${work}/docs/reference" --links "${work}/bad.md")
file(WRITE "${work}/bad.hpp" "constexpr auto kRule = \"${ref}chunks.md#next\";\n")
expect("a missing page" 1 "no such file" --pages "${work}/docs/reference" --links "${work}/bad.hpp")
file(REMOVE_RECURSE "${work}")
