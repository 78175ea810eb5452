//
// agentio/testing/src.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The compiled part of the testing component: the fake LLM and the fake web services.
// Include it in exactly one source file of a program built with
// AGENTIO_SEPARATE_COMPILATION (see <agentio/config.hpp>).
//

#ifndef AGENTIO_TESTING_SRC_HPP
#define AGENTIO_TESTING_SRC_HPP

#include <agentio/config.hpp>

#ifdef AGENTIO_HEADER_ONLY
#error Define AGENTIO_SEPARATE_COMPILATION in every file of the program that includes this source.
#endif

#include <agentio/testing/fake_llm.hpp>
#include <agentio/testing/fake_web.hpp>

#include <agentio/testing/impl/fake_llm.ipp>
#include <agentio/testing/impl/fake_web.ipp>

#endif
