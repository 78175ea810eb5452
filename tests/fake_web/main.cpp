// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

#define BOOST_TEST_MODULE agentio fake web tests
#include <boost/test/unit_test.hpp>
