//
// agentio/threads/src.hpp
// ~~~~~~~~~~~~~~~~~~~~~~~
//
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The compiled part of the threads component: the SQLite and PostgreSQL
// thread stores. (The interface, <agentio/threads.hpp>, is core's.)
// Include it in exactly one source file of a program built with
// AGENTIO_SEPARATE_COMPILATION (see <agentio/config.hpp>).
//

#ifndef AGENTIO_THREADS_SRC_HPP
#define AGENTIO_THREADS_SRC_HPP

#include <agentio/config.hpp>

#ifdef AGENTIO_HEADER_ONLY
#error Define AGENTIO_SEPARATE_COMPILATION in every file of the program that includes this source.
#endif

#include <agentio/threads/postgres_store.hpp>
#include <agentio/threads/sqlite_store.hpp>

#include <agentio/threads/impl/postgres_store.ipp>
#include <agentio/threads/impl/sqlite_store.ipp>

#endif
