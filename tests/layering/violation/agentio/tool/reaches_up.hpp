// A header of the tool layer that includes the agent layer above it: the checker must say so.
#include <agentio/agent/orchestrator.hpp>
