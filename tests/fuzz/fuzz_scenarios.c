/* fuzz_scenarios.c: libFuzzer target for the scenario-grid loader
 * (mcp_scenarios_load). */
#include "tests/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  char err[512] = "";
  mcp_scenarios *s = NULL;
  mcp_status st = mcp_scenarios_load(&s, fuzz_file(data, n), err, sizeof err);
  fuzz_check_message(st, err);
  mcp_scenarios_destroy(s);
  return 0;
}
