#pragma once
// A job engine that reaches up into app/: the layering check must refuse it.
#include "core/clock.hpp"
#include "app/mock_server.hpp"
