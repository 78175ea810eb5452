// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The library's non-template code, compiled once for the whole program
// (AGENTIO_SEPARATE_COMPILATION): one src.hpp per component used.
#include <agentio/src.hpp>
#include <agentio/http/src.hpp>
#include <agentio/llm/src.hpp>
#include <agentio/testing/src.hpp>
