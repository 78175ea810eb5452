//
// agentio/chat_completions/src.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The compiled part of the chat_completions component: request reading,
// errors and the endpoint.
// Include it in exactly one source file of a program built with
// AGENTIO_SEPARATE_COMPILATION (see <agentio/config.hpp>).
//

#ifndef AGENTIO_CHAT_COMPLETIONS_SRC_HPP
#define AGENTIO_CHAT_COMPLETIONS_SRC_HPP

#include <agentio/config.hpp>

#ifdef AGENTIO_HEADER_ONLY
#error Define AGENTIO_SEPARATE_COMPILATION in every file of the program that includes this source.
#endif

#include <agentio/chat_completions/endpoint.hpp>
#include <agentio/chat_completions/error.hpp>
#include <agentio/chat_completions/files.hpp>
#include <agentio/chat_completions/question_model.hpp>
#include <agentio/chat_completions/request.hpp>

#include <agentio/chat_completions/impl/endpoint.ipp>
#include <agentio/chat_completions/impl/error.ipp>
#include <agentio/chat_completions/impl/files.ipp>
#include <agentio/chat_completions/impl/question_model.ipp>
#include <agentio/chat_completions/impl/request.ipp>

#endif
