#pragma once

// Everything of the webdata SDK in one include.
#include "webdata/result.hpp"
#include "webdata/transport.hpp"
