// Data for check_black_box.cmake's self-test (never compiled): a test source that starts the
// mock in-process, as the SDK's tests did before issue 22.
#include "mock_fixture.hpp"
#include "webdata/webdata.hpp"
