# The mock's layering check (docs/adr/0005-mock-layers.md), run by CTest:
#   cmake -DROOT=<mockserver dir> -P check_layers.cmake
# Each layer may include its own headers and those of the layers it is allowed to use, never one
# above it. A layer's tests may also include the shared test support (tests/support) and their
# own helpers. Fails listing every include that points the wrong way.

cmake_minimum_required(VERSION 3.25)

set(allowed_core "")
set(allowed_http core)
set(allowed_requests core)
set(allowed_content core)
set(allowed_web core)
set(allowed_formats content web core)
set(allowed_scrape requests formats content web core)
set(allowed_jobs scrape requests formats content web core)
set(allowed_search scrape requests formats content web core)
set(allowed_webhooks core)
set(layers core http requests content web formats scrape jobs search webhooks)

if(NOT ROOT OR NOT IS_DIRECTORY "${ROOT}")
  message(FATAL_ERROR "check_layers: ROOT must name the mockserver directory")
endif()

set(all_dirs ${layers} app tests)
set(violations "")
set(checked 0)
foreach(layer IN LISTS layers)
  file(GLOB_RECURSE sources RELATIVE "${ROOT}" "${ROOT}/${layer}/*.cpp" "${ROOT}/${layer}/*.hpp")
  foreach(source IN LISTS sources)
    math(EXPR checked "${checked} + 1")
    file(STRINGS "${ROOT}/${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]+\"")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" header "${line}")
      if(NOT header MATCHES "/")
        continue()  # a header beside the file, or a test support header
      endif()
      string(REGEX REPLACE "/.*" "" target_dir "${header}")
      if(NOT target_dir IN_LIST all_dirs)
        continue()  # not a mock layer (webdata/..., a library's own path)
      endif()
      if(target_dir STREQUAL layer OR target_dir IN_LIST allowed_${layer})
        continue()
      endif()
      string(REPLACE ";" " " may_use "${layer};${allowed_${layer}}")
      list(APPEND violations "${source}: includes \"${header}\" (${layer} may use: ${may_use})")
    endforeach()
  endforeach()
endforeach()

include(${CMAKE_CURRENT_LIST_DIR}/check_report.cmake)
check_report(check_layers "${checked}" violations "include(s) point up or sideways"
             "every include points down")
