#define BOOST_TEST_MODULE agentio-portfolio tests
#include <boost/test/unit_test.hpp>
