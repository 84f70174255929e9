// SPDX-License-Identifier: MIT
#include "judge/check/reference.h"

#include <dlfcn.h>

#include <filesystem>

#include "../../problems/reference_abi.h"
#include "judge/testcase/generate.h"

namespace judge {

Expected<Reference> Reference::Load(const Problem& problem, CompileCache& cache) {
  std::string abi_dir = std::filesystem::path(problem.dir).parent_path().string();
  HostCompiler compiler({"-I" + abi_dir});
  // The problem author's code, loaded into the judge itself: confining its compile would protect
  // nothing, and it may include files next to it.
  CompileCache trusted(cache.dir(), CompileSandboxPolicy(false, "the problem's trusted reference"));
  auto built = trusted.Build(compiler, problem.reference_source, "host", problem.limits.compile_seconds);
  if (!built) return built.error();
  if (!built->ok) return MakeError(ErrorCode::kInternal, "the reference " + problem.reference_source + " does not compile:\n" + built->log);
  void* handle = ::dlopen(built->library_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return MakeError(ErrorCode::kInternal, std::string("cannot load the reference: ") + ::dlerror());
  void* fn = ::dlsym(handle, "judge_reference");
  if (!fn) return MakeError(ErrorCode::kInternal, problem.reference_source + " does not define extern \"C\" judge_reference");
  Reference ref;
  ref.fn_ = reinterpret_cast<Fn>(fn);
  return ref;
}

Expected<ExpectedOutputs> Reference::Compute(const Problem& problem, const Case& c) const {
  std::vector<HostBytes> inputs;
  std::vector<const void*> input_ptrs;
  std::vector<int64_t> input_counts, output_counts, scalars;
  ExpectedOutputs outputs;
  for (const Param& p : problem.params) {
    if (!p.is_buffer) { scalars.push_back(c.scalars.at(p.name)); continue; }
    auto count = problem.ElementCount(p, c.scalars);
    if (!count) return count.error();
    if (p.role == Role::kInput) {
      inputs.push_back(MaterializeInput(c.inputs.at(p.name), p.dtype, *count));
      input_counts.push_back(*count);
    } else {
      outputs.emplace_back(size_t(*count), 0.0);
      output_counts.push_back(*count);
    }
  }
  for (const auto& in : inputs) input_ptrs.push_back(in.data());
  std::vector<double*> output_ptrs;
  for (auto& o : outputs) output_ptrs.push_back(o.data());
  JudgeReferenceArgs args{int32_t(inputs.size()), input_ptrs.data(), input_counts.data(),
                          int32_t(outputs.size()), output_ptrs.data(), output_counts.data(),
                          int32_t(scalars.size()), scalars.data()};
  int rc = fn_(&args);
  if (rc != 0) return MakeError(ErrorCode::kInternal, "the reference failed on case " + c.name + " (returned " + std::to_string(rc) + ")");
  return outputs;
}

}  // namespace judge
