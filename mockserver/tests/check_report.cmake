# The report every source check ends with (included by the check_*.cmake scripts):
#   check_report(<check> <files checked> <problems list variable> <what the problems are> <ok text>)
# Fails naming every problem, one a line, when there are any (or when no file was checked: a
# wrong ROOT must not pass); otherwise prints the check's one-line summary.

function(check_report check checked problems_var what ok)
  if(checked EQUAL 0)
    message(FATAL_ERROR "${check}: no sources found under ${ROOT}")
  endif()
  list(LENGTH ${problems_var} count)
  if(count GREATER 0)
    string(REPLACE ";" "\n  " listing "${${problems_var}}")
    message(FATAL_ERROR "${check}: ${count} ${what}:\n  ${listing}")
  endif()
  message(STATUS "${check}: ${checked} files, ${ok}")
endfunction()
