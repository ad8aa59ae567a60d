// SPDX-License-Identifier: MIT
#pragma once

#include "cli/commandline.h"
#include "core/model/modelconfig.h"
#include "engine/modelcompiler.h"

#include <string>
#include <vector>

namespace flint::app {

/// The strategy options (--tp, --pp, --dp, --ranks, --schedule, --zero, ...) followed by `own`.
std::vector<OptionSpec> withStrategyOptions(std::vector<OptionSpec> own);
/// `base` with the strategy options given on `cli` applied. Throws UsageError.
core::model::ParallelConfig strategyFromCli(const CommandLine& cli, core::model::ParallelConfig base);
/// A built-in model by name, else a model file. Throws UsageError, core::InputError.
core::model::TransformerConfig modelFromArgument(const std::string& nameOrFile);

std::string formatSeconds(double seconds);
/// Step time, tokens/s, MFU, bubble, exposed communication and memory, one per line.
std::string figuresText(const core::model::CompiledModel& compiled, const core::model::StepFigures& figures);

} // namespace flint::app
