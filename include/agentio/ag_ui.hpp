//
// agentio/ag_ui.hpp
// ~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// AG-UI: any model of chat_completions/ served as the event stream a user
// interface reads (CopilotKit and the other `@ag-ui/client` front ends).
//

#ifndef AGENTIO_AG_UI_HPP
#define AGENTIO_AG_UI_HPP

#include <agentio/ag_ui/endpoint.hpp>
#include <agentio/ag_ui/protocol.hpp>

#endif
