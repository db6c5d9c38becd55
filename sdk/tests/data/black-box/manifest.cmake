# Three would-be SDK test targets, each reaching the mock another way: the negative self-tests
# of check_black_box.cmake (sdk/tests/CMakeLists.txt) expect every one of them to be refused.
set(targets links_the_mock includes_a_mock_header has_the_mock_on_its_path)
set(_here "${ROOT}/sdk/tests/data/black-box")

set(links_the_mock_links "webdata_sdk;webdata_test_support;webdata_mock_core;Catch2::Catch2")
set(links_the_mock_include_dirs "${ROOT}/sdk/include;${ROOT}/tests/support")
set(links_the_mock_sources "${_here}/clean_test.cpp")

# The SDK tests' old way: the in-process fixture, which includes the mock's app/ headers.
set(includes_a_mock_header_links "webdata_sdk;webdata_test_support")
set(includes_a_mock_header_include_dirs "${ROOT}/sdk/include;${ROOT}/tests/support")
set(includes_a_mock_header_sources "${_here}/in_process_test.cpp")

set(has_the_mock_on_its_path_links "webdata_sdk")
set(has_the_mock_on_its_path_include_dirs "${ROOT}/sdk/include;${ROOT}/mockserver")
set(has_the_mock_on_its_path_sources "${_here}/clean_test.cpp")
