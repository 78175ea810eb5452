//
// agentio/src.hpp
// ~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The compiled part of the core component: the schema validator, the compact
// argument form, the wire codecs (chat and embeddings), the ReAct parser and
// the plan-and-execute strategy's parsers and prompts.
// Include it in exactly one source file of a program built with
// AGENTIO_SEPARATE_COMPILATION (see <agentio/config.hpp>).
//

#ifndef AGENTIO_SRC_HPP
#define AGENTIO_SRC_HPP

#include <agentio/config.hpp>

#ifdef AGENTIO_HEADER_ONLY
#error Define AGENTIO_SEPARATE_COMPILATION in every file of the program that includes this source.
#endif

#include <agentio/agent/plan_execute.hpp>
#include <agentio/agent/strategy.hpp>
#include <agentio/agent/react.hpp>
#include <agentio/llm/anthropic_codec.hpp>
#include <agentio/llm/context.hpp>
#include <agentio/llm/embeddings.hpp>
#include <agentio/llm/message_json.hpp>
#include <agentio/llm/openai_codec.hpp>
#include <agentio/threads.hpp>
#include <agentio/threads/turn.hpp>
#include <agentio/tool/compact.hpp>
#include <agentio/tool/validator.hpp>
#include <agentio/trace.hpp>

#include <agentio/agent/impl/plan_execute.ipp>
#include <agentio/agent/impl/strategy.ipp>
#include <agentio/agent/impl/react.ipp>
#include <agentio/llm/impl/anthropic_codec.ipp>
#include <agentio/llm/impl/context.ipp>
#include <agentio/llm/impl/embeddings.ipp>
#include <agentio/llm/impl/message_json.ipp>
#include <agentio/llm/impl/openai_codec.ipp>
#include <agentio/threads/impl/threads.ipp>
#include <agentio/threads/impl/turn.ipp>
#include <agentio/tool/impl/compact.ipp>
#include <agentio/tool/impl/validator.ipp>
#include <agentio/trace/impl/trace.ipp>

#endif
