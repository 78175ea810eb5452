# Copyright (c) 2026 The agentio developers
# Distributed under the Boost Software License, Version 1.0. (See accompanying
# file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

# Compiles one snippet and checks the outcome its first line announces:
#   // expect: compiles          the snippet must compile
#   // expect: <regex>           it must fail, with output matching <regex>
# As {fmt}'s compile-error tests, plus the message check: a snippet failing
# for an unrelated reason (a typo) does not pass.
#
# cmake -DCXX=... -DINCLUDE=... -DSOURCE=... -DFLAGS="..." -P run.cmake

file(STRINGS "${SOURCE}" first_line LIMIT_COUNT 1)
string(REGEX REPLACE "^// expect: " "" expect "${first_line}")
separate_arguments(flags UNIX_COMMAND "${FLAGS}")

execute_process(
    COMMAND "${CXX}" -std=c++20 -fsyntax-only ${flags} -I${INCLUDE} "${SOURCE}"
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE out)

if(expect STREQUAL "compiles")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "the control snippet does not compile:\n${out}")
    endif()
    return()
endif()

if(rc EQUAL 0)
    message(FATAL_ERROR "compiled, but must not: ${SOURCE}")
endif()
if(NOT out MATCHES "${expect}")
    message(FATAL_ERROR "failed to compile, but without the expected message '${expect}':\n${out}")
endif()
message(STATUS "refused as expected: ${expect}")
