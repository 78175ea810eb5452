//
// agentio/tool.hpp
// ~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Typed tools: argument schemas generated at compile time, validation with
// JSON Pointers, compile-time toolsets, runtime tools.
//

#ifndef AGENTIO_TOOL_HPP
#define AGENTIO_TOOL_HPP

#include <agentio/tool/compact.hpp>
#include <agentio/tool/schema.hpp>
#include <agentio/tool/tool.hpp>
#include <agentio/tool/toolset.hpp>
#include <agentio/tool/validator.hpp>

#endif
