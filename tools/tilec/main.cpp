// Placeholder: replaced by the command line.
#include "driver/Options.h"
#include <iostream>
int main() { return tilec::runTilec({}, std::cout, std::cerr); }
