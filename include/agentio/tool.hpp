//
// agentio/tool.hpp
// ~~~~~~~~~~~~~~~~
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
