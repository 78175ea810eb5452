//
// agentio/config.hpp
// ~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Header-only or separately compiled, as in Asio and Beast.
//
// By default every function is defined in the headers. A program that defines
// AGENTIO_SEPARATE_COMPILATION (in every translation unit, for example with
// `target_compile_definitions`) compiles the non-template code once instead:
// one source file of the program includes the `src.hpp` of each component it
// uses, and the other files only see declarations. The HTTP providers'
// templates are then instantiated there too, for both wire formats.
//
//   component         source file to include once
//   core              <agentio/src.hpp>
//   http              <agentio/http/src.hpp> and <agentio/llm/src.hpp> (the providers)
//   app               <agentio/app/src.hpp>
//   chat_completions  <agentio/chat_completions/src.hpp>
//   ag_ui             <agentio/ag_ui/src.hpp>
//   a2a               <agentio/a2a/src.hpp>
//   mcp               <agentio/mcp/src.hpp>
//   mcp_client        <agentio/mcp/client/src.hpp>
//   sqlite            <agentio/sqlite/src.hpp>
//   postgres          <agentio/postgres/src.hpp>
//   threads           <agentio/threads/src.hpp> (the stores)
//   retrieval         <agentio/retrieval/src.hpp>
//   testing           <agentio/testing/src.hpp>
//
// A file with one tool, the orchestrator, a provider
// and the fake LLM then compiles in 13 s instead of 54 s at -O3; see
// docs/notes/benchmarks.md, "Build time".
//

#ifndef AGENTIO_CONFIG_HPP
#define AGENTIO_CONFIG_HPP

#if defined(AGENTIO_SEPARATE_COMPILATION)
/// How a non-template function defined in an `.ipp` file is declared.
#define AGENTIO_DECL
#else
#define AGENTIO_HEADER_ONLY 1
#define AGENTIO_DECL inline
#endif

#endif
