// Placeholder: replaced by the driver.
#include "driver/Options.h"
#include <ostream>
namespace tilec {
int runTilec(const Options &, std::ostream &, std::ostream &err) {
  err << "tilec: not implemented yet\n";
  return 1;
}
} // namespace tilec
