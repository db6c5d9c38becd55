// Data for check_black_box.cmake's self-test (never compiled): a test source that reaches the
// mock only through the SDK.
#include "webdata/webdata.hpp"
