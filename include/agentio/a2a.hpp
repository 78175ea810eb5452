//
// agentio/a2a.hpp
// ~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A2A 1.0: an agent served to other agents (the agent card, tasks, streaming)
// over the runs AG-UI serves, so both protocols see the same journal.
//

#ifndef AGENTIO_A2A_HPP
#define AGENTIO_A2A_HPP

#include <agentio/a2a/client.hpp>
#include <agentio/a2a/endpoint.hpp>
#include <agentio/a2a/protocol.hpp>

#endif
