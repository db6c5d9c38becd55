# What every check of a run's --verdicts file demands, shared by plain_check.cmake,
# stall_check.cmake and deployment_check.cmake (include() it).

# Stops the script with an error naming the first of the variables given that is not set.
function(require_defined)
  get_filename_component(script "${CMAKE_SCRIPT_MODE_FILE}" NAME)
  foreach(var IN LISTS ARGN)
    if(NOT DEFINED ${var})
      message(FATAL_ERROR "${script}: ${var} is not set")
    endif()
  endforeach()
endfunction()

# Sets `out` to the elements (`what` GET) or the keys (`what` MEMBER) of the JSON array or object
# at `path...` of `doc`, as a list; empty when there is none.
function(json_each out what doc)
  set(items "")
  string(JSON n ERROR_VARIABLE missing LENGTH "${doc}" ${ARGN})
  if(NOT missing AND n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON item ${what} "${doc}" ${ARGN} ${i})
      list(APPEND items "${item}")
    endforeach()
  endif()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

# Appends to the variable named `var` what no run may show: a rule passed without a check on it
# (with ALL_PASSED: a rule not passed at all), a failure naming no rule, a case naming a rule
# without its tag.
function(check_run_report var actual)
  cmake_parse_arguments(ARG "ALL_PASSED" "" "" ${ARGN})
  set(text "${${var}}")
  json_each(ids MEMBER "${actual}" rules)
  foreach(id IN LISTS ids)
    string(JSON verdict GET "${actual}" rules ${id} verdict)
    string(JSON checks GET "${actual}" rules ${id} checks)
    if(ARG_ALL_PASSED AND NOT verdict STREQUAL "passed")
      string(APPEND text "  ${id}: ${verdict}\n")
    elseif(verdict STREQUAL "passed" AND checks LESS 1)
      string(APPEND text "  ${id}: passed without a check on it\n")
    endif()
  endforeach()
  foreach(key failuresNamingNoRule untaggedRules)
    string(JSON list GET "${actual}" ${key})
    if(NOT list STREQUAL "[]")
      string(APPEND text "  ${key}: ${list}\n")
    endif()
  endforeach()
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# Ends the script: an error listing `problems` under `what`, or the status message made of the
# remaining arguments (a semicolon in them would be lost: CMake splits arguments on it).
function(report_problems problems what)
  if(NOT problems STREQUAL "")
    message(FATAL_ERROR "${what}:\n${problems}")
  endif()
  list(JOIN ARGN "" ok)
  message(STATUS "${ok}")
endfunction()
