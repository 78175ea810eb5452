// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The library's Spanish catalog, passed by the tests so they can check that
// every sentence comes from the caller (none is built in English).
#ifndef AGENTIO_TEST_SPANISH_MESSAGES_HPP
#define AGENTIO_TEST_SPANISH_MESSAGES_HPP

#include <agentio/messages.hpp>

namespace agentio_test {

inline constexpr agentio::messages const& spanish_messages = agentio::spanish_messages;

} // namespace agentio_test

#endif
