// An include between side-by-side wings: check_layers.py must name it.
#pragma once
#include "runtime/ida/ida_skeleton.hpp"
