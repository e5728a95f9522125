"""Record types, one TypedDict per kind: GENERATED from schema/ by `python -m generators types`; do not edit.

`Index.all/get/must("<kind>", ...)` return records whose `.data` is the kind's TypedDict, so mypy checks
every key a stage reads against the schema.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypedDict, overload

if TYPE_CHECKING:
    from typing_extensions import NotRequired

    from .records import Record, TypedRecord
else:
    NotRequired = Any
    # At run time a record type is a plain dict (its data is one): typing's TypedDict would check every field's
    # annotation on import, which only mypy reads (half of this module's import, on every command).
    TypedDict = dict


Name: TypeAlias = str


Text: TypeAlias = str


RefSource: TypeAlias = str


Platform: TypeAlias = Literal['cuda', 'rocm', 'xpu', 'cpu', 'tpu', 'hpu', 'neuron', 'metal', 'other']


class Citation(TypedDict):
    """Where a fact comes from: a source record plus where in it."""

    source: RefSource
    locator: NotRequired[str]
    quote: NotRequired[str]
    value: NotRequired[float]
    difference: NotRequired[float]
    platforms: NotRequired[list[Platform]]


Sources: TypeAlias = list[Citation]


class ContestedItemClaims(TypedDict):
    value: str | float | bool | list[Any]
    sources: Sources


RefFinding: TypeAlias = str


class ContestedItem(TypedDict):
    field: str
    claims: list[ContestedItemClaims]
    resolution: NotRequired[RefFinding]
    upheld: NotRequired[int]


Contested: TypeAlias = list[ContestedItem]


class KnownGapsItem(TypedDict):
    id: str
    kind: Literal['format', 'accelerator', 'hardware-target', 'kernel', 'engine', 'scheme', 'support-matrix', 'gotcha', 'benchmark', 'finding', 'technique', 'term', 'source']
    reason: Text


KnownGaps: TypeAlias = list[KnownGapsItem]


class Maturity(TypedDict):
    """How settled the record is."""

    status: Literal['draft', 'reviewed', 'deprecated', 'archived-upstream']
    confidence: NotRequired[float]


Unverified: TypeAlias = Text


Precision: TypeAlias = Literal['fp64', 'fp32', 'tf32', 'fp16', 'bf16', 'fp8', 'fp8-fnuz', 'int8', 'fp6', 'fp4', 'nvfp4', 'mxfp8', 'mxfp6', 'mxfp4', 'int4']


Encoding: TypeAlias = Literal['e4m3', 'e5m2', 'e4m3fnuz', 'e5m2fnuz']


RefFormat: TypeAlias = str


class FormatBitsPerWeight(TypedDict):
    """A bits-per-weight figure with its basis and source."""

    value: float
    basis: Literal['struct', 'measured', 'nominal']
    model: NotRequired[str]
    source: RefSource
    locator: NotRequired[str]


RefAccelerator: TypeAlias = str


class StatedSupportItem(TypedDict):
    """One source's list."""

    accelerators: list[RefAccelerator]
    sources: Sources
    explained_by: NotRequired[RefFinding]


StatedSupport: TypeAlias = list[StatedSupportItem]


class FormatFields(TypedDict):
    """A quantized number format or checkpoint layout."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    sources: Sources
    contested: NotRequired[Contested]
    known_gaps: NotRequired[KnownGaps]
    maturity: NotRequired[Maturity]
    unverified: NotRequired[Unverified]
    aliases: NotRequired[list[str]]
    format_class: Literal['checkpoint', 'hardware', 'category']
    peak_precision: NotRequired[Precision]
    encoding: NotRequired[Encoding]
    emulated_via: NotRequired[list[Precision]]
    computes_in: NotRequired[list[RefFormat]]
    computes_in_sources: NotRequired[Sources]
    family: Literal['floating-point', 'integer', 'block-scaled-fp', 'block-scaled-int', 'normal-float', 'gguf-legacy', 'gguf-k-quant', 'gguf-i-quant', 'gguf-ternary', 'ternary', 'codebook', 'mixture', 'toolkit-output', 'category']
    regime: Literal['weight-only', 'weight-activation', 'kv-cache', 'training-time', 'mixed', 'category']
    weight_bits: NotRequired[float | None]
    activation_bits: NotRequired[float | None]
    element_format: NotRequired[str]
    scale_format: NotRequired[str]
    group_size: NotRequired[int]
    bits_per_weight: NotRequired[list[FormatBitsPerWeight]]
    stated_native: NotRequired[StatedSupport]
    stated_emulated: NotRequired[StatedSupport]
    quality_note: NotRequired[Text]
    related: NotRequired[list[RefFormat]]


CpuArch: TypeAlias = Literal['x86_64', 'aarch64', 'riscv64', 'ppc64le', 's390x']


class AcceleratorHostCpu(TypedDict):
    """The host CPU architecture of a part that is sold only with its host (a superchip or a system with its own CPU: a DGX Spark, a Grace-based GB200). Leave it out for a card or module that goes into whatever server takes it. A package that states the hosts it can be had on (a runtime check's or requirement's `hosts`) then adds a condition to this part's answers."""

    arch: CpuArch
    source: RefSource
    locator: str


class SourcedNumber(TypedDict):
    """A positive quantity (a capacity, bandwidth or power) with the source it was read from."""

    value: float
    source: RefSource
    locator: NotRequired[str]
    estimate: NotRequired[bool]
    note: NotRequired[Text]
    unverified: NotRequired[str]


Encodings: TypeAlias = list[Encoding]


class AcceleratorPeakComputeRunsAs(TypedDict):
    """Where a source states that the part's matrix engines have no path of their own for this figure's precision: the wider precision the operands are converted to, whose rate the figure is. The figure stays a figure (it enters ratios and ridge points), but it makes no format of its precision native: such a format is derived emulated through `precision`, as on a part that states no figure in it. Leave it out where no source says so; a figure merely equal to another precision's is not enough."""

    precision: Precision
    source: RefSource
    locator: str
    quote: NotRequired[str]
    note: NotRequired[Text]


class AcceleratorPeakCompute(TypedDict):
    """A peak-throughput figure."""

    precision: Precision
    encodings: NotRequired[Encodings]
    sparsity: Literal['dense', 'sparse-2:4']
    tflops: float
    accumulate: NotRequired[Literal['fp32', 'fp16']]
    source: RefSource
    locator: NotRequired[str]
    estimate: NotRequired[bool]
    note: NotRequired[Text]
    unverified: NotRequired[str]
    runs_as: NotRequired[AcceleratorPeakComputeRunsAs]


class AcceleratorMatrixEncodings(TypedDict):
    precision: Precision
    encodings: Encodings
    source: RefSource
    locator: str
    quote: NotRequired[str]
    note: NotRequired[Text]


class MatrixFormat(TypedDict):
    """An operand precision a matrix engine executes with an instruction of its own: in a hardware target's `matrix_formats` it holds for every part of the target; in an accelerator's, for that part alone (where its targets' parts differ)."""

    precision: Precision
    encodings: NotRequired[Encodings]
    instruction: str
    source: RefSource
    locator: str
    quote: NotRequired[str]
    note: NotRequired[Text]


class NoMatrixFormat(TypedDict):
    """An operand precision a source shows a matrix engine has no instruction for: in a hardware target's `no_matrix_formats` on every part of the target; in an accelerator's, on that part alone (where its targets' parts differ)."""

    precision: Precision
    source: RefSource
    locator: str
    quote: NotRequired[str]
    note: NotRequired[Text]


class AcceleratorStatedTallies(TypedDict):
    """A per-accelerator native/emulated tally that a source states, kept to compare with the tally the records give."""

    native: NotRequired[int | None]
    emulated: NotRequired[int | None]
    source: RefSource
    locator: NotRequired[str]
    explained_by: NotRequired[RefFinding]


class AcceleratorFields(TypedDict):
    """A chip, board or system that runs inference."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    sources: Sources
    contested: NotRequired[Contested]
    known_gaps: NotRequired[KnownGaps]
    maturity: NotRequired[Maturity]
    unverified: NotRequired[Unverified]
    vendor: str
    category: Literal['datacenter-gpu', 'workstation-gpu', 'consumer-gpu', 'rack-system', 'apple-silicon', 'cpu', 'tpu', 'ai-asic', 'wafer-scale']
    architecture: NotRequired[str]
    compute_capability: NotRequired[str]
    gfx_target: NotRequired[str]
    die: NotRequired[str]
    die_difference: NotRequired[RefFinding]
    host_cpu: NotRequired[AcceleratorHostCpu]
    memory_gb: NotRequired[list[SourcedNumber]]
    memory_type: NotRequired[str]
    memory_bandwidth_gbs: NotRequired[list[SourcedNumber]]
    memory_bus_bits: NotRequired[list[SourcedNumber]]
    interconnect_bandwidth_gbs: NotRequired[list[SourcedNumber]]
    power_w: NotRequired[list[SourcedNumber]]
    peak_compute: NotRequired[list[AcceleratorPeakCompute]]
    matrix_encodings: NotRequired[list[AcceleratorMatrixEncodings]]
    matrix_formats: NotRequired[list[MatrixFormat]]
    no_matrix_formats: NotRequired[list[NoMatrixFormat]]
    stated_tallies: NotRequired[list[AcceleratorStatedTallies]]


RefEngine: TypeAlias = str


CpuVendor: TypeAlias = Literal['AuthenticAMD', 'GenuineIntel']


IsaFeature: TypeAlias = Literal['avx2', 'avx512f', 'avx512bw', 'avx512vl', 'avx512_vnni', 'avx512_bf16', 'avx512_fp16', 'amx_tile', 'amx_bf16', 'amx_int8', 'amx_fp8', 'neon', 'dotprod', 'i8mm', 'sve', 'sve2', 'bf16', 'rvv', 'vsx', 'vxe']


class HardwareTargetNoMatrixInstructions(TypedDict):
    """States that the parts of this target have no matrix instruction at all (no matrix engine): no MFMA, WMMA, tensor-core or other instruction multiplies a matrix tile, in any precision. Every hardware format is then derived emulated on the target's parts (no matrix instruction takes it as it is: where an engine runs it at all, it runs converted to a wider type or on vector instructions), so one statement settles every format's cell. A target with it lists no `matrix_formats` (a contradiction) and no `no_matrix_formats` (implied, so not typed twice), and its parts state no peak figure, no `matrix_encodings` and belong to no target that lists a matrix instruction; check `no-matrix-instructions` enforces this."""

    source: RefSource
    locator: str
    quote: str
    also: NotRequired[list[Citation]]
    note: NotRequired[Text]


class HardwareTargetFields(TypedDict):
    """A column people ask about in a support table: a device class an engine's dispatch rules are tested against."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    sources: Sources
    contested: NotRequired[Contested]
    known_gaps: NotRequired[KnownGaps]
    maturity: NotRequired[Maturity]
    unverified: NotRequired[Unverified]
    platform: Platform
    compute_capability: NotRequired[int]
    cuda_arch_names: NotRequired[list[str]]
    dtypes_engine: NotRequired[RefEngine]
    auto_dtypes: NotRequired[list[Literal['float16', 'bfloat16', 'float32']]]
    gfx: NotRequired[str]
    fp8_dtype: NotRequired[Literal['float8_e4m3fn', 'float8_e4m3fnuz']]
    model_dtypes: NotRequired[list[Literal['float32', 'float16', 'bfloat16']]]
    cpu_arch: NotRequired[CpuArch]
    cpu_vendors: NotRequired[list[CpuVendor]]
    isa_features: NotRequired[list[IsaFeature]]
    accelerators: NotRequired[list[RefAccelerator]]
    matrix_formats: NotRequired[list[MatrixFormat]]
    no_matrix_formats: NotRequired[list[NoMatrixFormat]]
    no_matrix_instructions: NotRequired[HardwareTargetNoMatrixInstructions]
    order: int


Dtype: TypeAlias = Literal['float32', 'float16', 'bfloat16', 'float8_e4m3fn', 'float8_e5m2', 'int8', 'uint8', 'int4', 'uint4', 'uint4b8', 'uint8b128', 'float4_e2m1f', 'float8_e8m0fnu', 'int2', 'int3', 'ggml_q4_0', 'ggml_q8_0', 'ggml_q4_k', 'ggml_q5_k', 'ggml_q6_k', 'ggml_iq1_m', 'ggml_q4_1', 'ggml_q5_0', 'ggml_q5_1', 'ggml_iq4_xs', 'ggml_mxfp4', 'ggml_tq1_0', 'ggml_tq2_0', 'ggml_q2_k', 'ggml_q3_k', 'ggml_iq1_s', 'ggml_iq2_xxs', 'ggml_iq2_xs', 'ggml_iq2_s', 'ggml_iq3_xxs', 'ggml_iq3_s', 'ggml_iq4_nl', 'ggml_i2_s', 'exl3_trellis', 'bnb_nf4']


class KernelComputesInSettingPrecisions(TypedDict):
    value: int
    precision: Precision
    note: NotRequired[Text]


class KernelComputesInSettingWrittenBy(TypedDict):
    writer: str
    value: Dtype | int
    when: NotRequired[str]
    source: RefSource
    locator: str
    quote: NotRequired[str]


class KernelComputesInSetting(TypedDict):
    """A setting that chooses the precision of the multiply (bitsandbytes' bnb_4bit_compute_dtype; ONNX Runtime MatMulNBits' accuracy_level node attribute): its default gives `precision`, each other value its own (a float dtype the precision it names, any other value the one `precisions` gives it). Where a requirement of the kernel with `declines: false` accepts only some activation dtypes on a target, an answer there names the values it accepts."""

    name: str
    default: Dtype | int
    values: list[Dtype | int]
    precisions: NotRequired[list[KernelComputesInSettingPrecisions]]
    read_from: Text
    stored_in: NotRequired[str]
    default_when: NotRequired[str]
    default_by_target: NotRequired[bool]
    written_by: NotRequired[list[KernelComputesInSettingWrittenBy]]
    source: RefSource
    locator: str
    quote: NotRequired[str]


class KernelComputesIn(TypedDict):
    """For a kernel that dequantizes the weights and multiplies them in floating point with activations it does not quantize: the precision the multiply runs in with the engine's default build and settings, and where the code says so (other builds in `note`; a setting that chooses the precision in `setting`). Each answer names it for this kernel on its route (llama.cpp's cuBLAS path after its integer MMVQ and MMQ). A kernel that quantizes the activations (`activation_handling: quantized`) computes in its scheme's formats and states none."""

    precision: Precision
    accumulate: NotRequired[Literal['fp32', 'fp16']]
    source: RefSource
    locator: str
    quote: NotRequired[str]
    setting: NotRequired[KernelComputesInSetting]
    note: NotRequired[Text]


class KernelBlockScales(TypedDict):
    """For a kernel that serves block-scaled checkpoints (FP8 block scaling): the kind of block scale its matrix multiply is scaled by, as the engine hands it over. `float32`: the kernel (or the GEMM the engine calls) multiplies the FP8 element tiles and scales each partial product by float32 scales, one per 128-wide block, widening E8M0 scales first, so a cell through it computes in the element format (FP8 E4M3), never in a microscaling format whose matrix instruction applies E8M0 scales to 32-element blocks (MXFP8). Of the hardware formats a checkpoint format allows, an answer then drops the block-scaled ones (format family block-scaled-fp). Omit it where the kernel's scale handling was not read."""

    type: Literal['float32']
    source: RefSource
    locator: str
    quote: NotRequired[str]


RefHardwareTarget: TypeAlias = str


class KernelWithoutMatrixInstruction(TypedDict):
    targets: list[RefHardwareTarget]
    formats: list[RefFormat]
    computes: Literal['converted', 'vector', 'rescaled']
    precision: NotRequired[Precision]
    unit: NotRequired[Literal['matrix', 'vector']]
    instruction: NotRequired[str]
    source: RefSource
    locator: str
    quote: NotRequired[str]
    note: NotRequired[Text]


class KernelRequirementsComputes(TypedDict):
    """For a requirement with `declines: false` whose `check` alone does not say how the kept kernel computes when it fails (a capability bound, a scale kind; or a `weight-only` check whose kernel also makes the weights a float dtype at load): that, typed, as a fallback's short form ("Computes in") says it; `reason` says it in full and `locator` is where the code decides it. Without `precision`, the kernel's fields give it: its `computes_in` (else the activation dtypes it runs with) for `weight-only`, `dequantized` and `emulated`, its hardware `formats` for `activations-quantized`."""

    way: Literal['weight-only', 'dequantized', 'emulated', 'activations-quantized']
    precision: NotRequired[Precision]
    encoding: NotRequired[Encoding]


class KernelRequirementsWhen(TypedDict):
    """Restricts where a requirement or route applies; every listed condition must hold."""

    platform: NotRequired[list[Platform]]
    cpu_arch: NotRequired[list[CpuArch]]
    isa_features: NotRequired[list[IsaFeature]]
    activation_types: NotRequired[list[Dtype]]
    zero_points: NotRequired[bool]
    methods: NotRequired[list[str]]
    capability_min: NotRequired[int]
    capability_max: NotRequired[int]
    activation_quantized: NotRequired[bool]
    gfx: NotRequired[list[str]]
    weight_types: NotRequired[list[Dtype]]
    layers: NotRequired[list[Literal['dense', 'experts']]]


class HostLimit(TypedDict):
    """The host CPU architectures on which this package, op or extension can be had by the engine's own install route (its wheels, or the build its first import runs). On a part whose host CPU is fixed to another architecture (an accelerator's `host_cpu`), every cell whose conditions include this one needs a build for that host as well: the site adds it to that part's answer. Leave it out where the route works on any host."""

    arch: list[CpuArch]
    reason: str
    source: RefSource
    locator: str


class KernelRequirements(TypedDict):
    """One requirement of a kernel, evaluated in order as the engine evaluates it."""

    check: NotRequired[Literal['platform', 'capability-min', 'capability-exact', 'capability-max', 'capability-family', 'gfx', 'gfx-excluded', 'cpu-arch', 'cpu-vendor', 'isa', 'weight-type', 'activation-type', 'group-size', 'zero-points', 'weight-only', 'activation-quantized', 'weight-scales', 'activation-scales', 'activation-quant-type', 'package', 'op', 'env', 'shape', 'other']]
    uses: NotRequired[str]
    values: NotRequired[list[str | int]]
    at_least: NotRequired[int]
    multiple_of: NotRequired[int]
    value: NotRequired[int | bool | str]
    default: NotRequired[str]
    reason: str
    reason_verbatim: NotRequired[bool]
    declines: NotRequired[bool]
    computes: NotRequired[KernelRequirementsComputes]
    inferred: NotRequired[bool]
    read_in: NotRequired[list[RefSource]]
    after_selection: NotRequired[bool]
    constants: NotRequired[dict[str, str]]
    when: NotRequired[KernelRequirementsWhen]
    locator: NotRequired[str]
    condition: NotRequired[str]
    opposite_of: NotRequired[str]
    elsewhere: NotRequired[str]
    elsewhere_walk: NotRequired[bool]
    met_by_install: NotRequired[list[str]]
    hosts: NotRequired[HostLimit]


class KernelRoutesWhenCapabilities(TypedDict):
    """Applies only on targets whose compute capability (major x 10 + minor, as vLLM compares it) is one of `exact` (is_device_capability) or in the family of one of `family` (is_device_capability_family: the same capability // 10); a target without a capability never matches. For a path the engine allows only there, as Marlin's FP8 activations (SM89 or the SM12x family)."""

    exact: NotRequired[list[int]]
    family: NotRequired[list[int]]


class KernelRoutesWhen(TypedDict):
    """Restricts where a requirement or route applies; every listed condition must hold."""

    platform: NotRequired[list[Platform]]
    cpu_arch: NotRequired[list[CpuArch]]
    isa_features: NotRequired[list[IsaFeature]]
    activation_types: NotRequired[list[Dtype]]
    methods: NotRequired[list[str]]
    capabilities: NotRequired[KernelRoutesWhenCapabilities]
    capability_min: NotRequired[int]
    capability_max: NotRequired[int]
    gfx: NotRequired[list[str]]
    weight_types: NotRequired[list[Dtype]]
    layers: NotRequired[list[Literal['dense', 'experts']]]


class KernelRoutes(TypedDict):
    """A code path inside an accepting kernel, chosen after can_implement."""

    name: str
    when: NotRequired[KernelRoutesWhen]
    conditions: NotRequired[list[str]]
    op: NotRequired[str]
    description: Text
    locator: NotRequired[str]


class KernelExternalGatesWhen(TypedDict):
    """Restricts where a requirement or route applies; every listed condition must hold."""

    platform: NotRequired[list[Platform]]
    cpu_arch: NotRequired[list[CpuArch]]
    isa_features: NotRequired[list[IsaFeature]]
    activation_types: NotRequired[list[Dtype]]
    capability_min: NotRequired[int]
    weight_storage: NotRequired[list[Literal['int32', 'int8']]]


class KernelExternalGates(TypedDict):
    """A gate that lives outside can_implement: an op compiled only under some ISA flags, a library without a kernel for some capability."""

    description: Text
    when: NotRequired[KernelExternalGatesWhen]
    effect: Literal['excludes', 'requires', 'informational']
    needs: NotRequired[Text]
    locator: NotRequired[str]
    source: NotRequired[RefSource]


class BuiltWithWhen(TypedDict):
    """Restricts where the code launches the tool's kernels; every listed condition must hold. Omitted: wherever the record runs (the tool's own `first_use_needs` still say on which platforms a need applies)."""

    platform: NotRequired[list[Platform]]


class BuiltWith(TypedDict):
    """A compiler or runtime (an engine record that states `first_use_needs`) whose kernels this record's code launches: every support answer whose route passes through it, on a target `when` matches, lists that tool's `first_use_needs` for the target's platform once, under what it also needs at run time. The need is stated once, on the tool; this entry says only that the code uses it, and where."""

    tool: RefEngine
    when: NotRequired[BuiltWithWhen]
    what: NotRequired[Text]
    source: RefSource
    locator: str


class KernelFields(TypedDict):
    """A GEMM or attention kernel an engine can dispatch to, with what it requires."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    sources: Sources
    contested: NotRequired[Contested]
    known_gaps: NotRequired[KnownGaps]
    maturity: NotRequired[Maturity]
    unverified: NotRequired[Unverified]
    aliases: NotRequired[list[str]]
    engine: NotRequired[RefEngine]
    class_name: NotRequired[str]
    registry: NotRequired[Literal['mixed-precision-linear', 'scaled-mm-int8', 'scaled-mm-fp8', 'fp4', 'mxfp8', 'moe', 'attention', 'standalone', 'other']]
    linear_backends: NotRequired[list[str]]
    activation_handling: NotRequired[Literal['as-given', 'quantized', 'emulated']]
    computes_in: NotRequired[KernelComputesIn]
    block_scales: NotRequired[KernelBlockScales]
    without_matrix_instruction: NotRequired[list[KernelWithoutMatrixInstruction]]
    code: NotRequired[Citation]
    requirements: NotRequired[list[KernelRequirements]]
    routes: NotRequired[list[KernelRoutes]]
    external_gates: NotRequired[list[KernelExternalGates]]
    built_with: NotRequired[list[BuiltWith]]
    formats: NotRequired[list[RefFormat]]
    accelerators: NotRequired[list[RefAccelerator]]


Date: TypeAlias = str


class EngineLaterReleases(TypedDict):
    """One later release and what its comparison found."""

    release: str
    published: Date
    finding: RefFinding
    summary: Text


class EngineDefaultInstallBuiltFor(TypedDict):
    """One set of binaries the install runs and the architectures it carries code for."""

    binaries: NotRequired[str]
    gfx: NotRequired[list[str]]
    compute_capability: NotRequired[list[int]]
    arch_specific: NotRequired[list[int]]
    ptx: NotRequired[list[int]]
    alternative: NotRequired[str]
    toolkit: NotRequired[str]
    one_of: NotRequired[str]
    hosts: NotRequired[list[CpuArch]]
    source: RefSource
    locator: str


class EngineDefaultInstallProvides(TypedDict):
    fact: str
    text: str
    source: RefSource
    locator: NotRequired[str]


class EngineDefaultInstallLacks(TypedDict):
    fact: str
    text: str
    source: RefSource
    locator: NotRequired[str]


class EngineDefaultInstall(TypedDict):
    platform: Platform
    route: str
    release: str
    built_for: NotRequired[list[EngineDefaultInstallBuiltFor]]
    toolkit_sources: NotRequired[list[Citation]]
    provides: NotRequired[list[EngineDefaultInstallProvides]]
    lacks: NotRequired[list[EngineDefaultInstallLacks]]


class EngineFirstKernels(TypedDict):
    """Where the engine launches its first GPU kernels on a device before it builds the model, and so before any capability gate or kernel choice made while building it (a gate marked `before_first_kernels` is checked earlier). On a target the default install carries no code for (see `built_for`), the engine fails there at run time, so a cell that refuses says that the refusal it quotes is what a build for the target gives."""

    text: str
    source: RefSource
    locator: str
    quote: NotRequired[str]


class EngineRuntimeChecks(TypedDict):
    """One package, compiled op, switch or placement condition, with what it means and where the engine defines it."""

    id: str
    check: Literal['package', 'op', 'env', 'other']
    value: str
    condition: NotRequired[str]
    devices: NotRequired[dict[str, str]]
    default: NotRequired[str]
    met_by_install: NotRequired[list[str]]
    source: RefSource
    locator: str
    quote: NotRequired[str]
    hosts: NotRequired[HostLimit]


class EngineNoPath(TypedDict):
    """One platform without a path, with where the engine's dispatch comes up empty there."""

    platform: Platform
    selector: str
    failure_message: NotRequired[str]
    locator: str
    sources: Sources


RefKernel: TypeAlias = str


class CandidatePromotion(TypedDict):
    """One reordering."""

    kernel: RefKernel
    before: RefKernel
    capabilities: list[int]
    locator: str


class CandidateFilter(TypedDict):
    """A launch setting that filters a candidate list before any kernel is tried."""

    setting: str
    values: list[str]
    locator: str


class EngineCandidateLists(TypedDict):
    """One candidate list several schemes walk, with an id they name it by."""

    id: str
    platform: Platform
    selector: NotRequired[str]
    kernels: list[RefKernel]
    failure_message: NotRequired[str]
    before_first_kernels: NotRequired[bool]
    locator: NotRequired[str]
    sources: NotRequired[Sources]
    promotions: NotRequired[list[CandidatePromotion]]
    filter: NotRequired[CandidateFilter]


class EngineFirstUseNeedsWhen(TypedDict):
    """Where the need applies."""

    platform: list[Platform]


class EngineFirstUseNeeds(TypedDict):
    """One need of the tool on some platforms, with the source it is read from."""

    when: EngineFirstUseNeedsWhen
    needs: Text
    description: Text
    source: RefSource
    locator: str
    quote: NotRequired[str]


class EngineKernelsFrom(TypedDict):
    """For an engine that runs no kernels of its own but another engine's, installed beside it (ONNX Runtime GenAI runs the graphs its model builder writes on ONNX Runtime's operators): that engine, and the releases of it this one requires. Its schemes may then list the named engine's kernel records as candidates (check scheme-candidates), rather than copies of them, and the named engine's `version_read`, the release its kernel records describe, must satisfy `requirement` (check kernels-from); its answers say which release of it was read."""

    engine: RefEngine
    requirement: str
    source: RefSource
    locator: str
    quote: str
    note: NotRequired[Text]


class EnginePluginOfElsewhere(TypedDict):
    text: str
    source: RefSource
    locator: str
    quote: NotRequired[str]


class EnginePluginOf(TypedDict):
    """For an engine that is another engine's out-of-tree platform plugin, installed beside it and loaded by it (vLLM-Gaudi registers Intel Gaudi's platform in vLLM's platform plugin group): that engine and the platforms the plugin adds. The plugin's schemes answer for those platforms, so a reader who picks the host engine on a target of one of them is sent to the plugin's answers rather than told nothing is known; the host engine's schemes then list no candidates for those platforms and the plugin's schemes none for any other (check plugin-of)."""

    engine: RefEngine
    platforms: list[Platform]
    source: RefSource
    locator: str
    quote: str
    elsewhere: NotRequired[list[EnginePluginOfElsewhere]]


class EngineFormatSupport(TypedDict):
    """Whether the engine runs a format, and on which backends."""

    format: RefFormat
    backends: NotRequired[list[str]]
    status: Literal['yes', 'partial', 'writes', 'no']
    note: NotRequired[Text]
    unverified: NotRequired[str]
    source: RefSource


class EngineFields(TypedDict):
    """An inference engine, quantization toolkit, library or research harness."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    sources: Sources
    contested: NotRequired[Contested]
    known_gaps: NotRequired[KnownGaps]
    maturity: NotRequired[Maturity]
    unverified: NotRequired[Unverified]
    aliases: NotRequired[list[str]]
    category: Literal['serving-engine', 'local-runtime', 'kernel-library', 'compiler', 'quantization-toolkit', 'format-library', 'research-harness']
    organization: NotRequired[str]
    repository: NotRequired[str]
    version_read: NotRequired[str]
    later_releases: NotRequired[list[EngineLaterReleases]]
    default_install: NotRequired[list[EngineDefaultInstall]]
    first_kernels: NotRequired[EngineFirstKernels]
    runtime_checks: NotRequired[list[EngineRuntimeChecks]]
    no_path: NotRequired[list[EngineNoPath]]
    candidate_lists: NotRequired[list[EngineCandidateLists]]
    first_use_needs: NotRequired[list[EngineFirstUseNeeds]]
    built_with: NotRequired[list[BuiltWith]]
    kernels_from: NotRequired[EngineKernelsFrom]
    plugin_of: NotRequired[EnginePluginOf]
    backends: NotRequired[list[str]]
    format_support: NotRequired[list[EngineFormatSupport]]


RefScheme: TypeAlias = str


class SchemeOtherLayers(TypedDict):
    """Required on a `layers: experts` scheme and refused on any other: what the engine gives the same checkpoint's other linear layers (every linear layer outside the expert blocks), stated once here so that each of the scheme's answers can add the whole checkpoint's verdict on the target, the worse of its own and that scheme's cell there. Either `scheme`, the scheme whose cells describe those layers (same engine, `layers: dense`), or `no_scheme`, why no scheme applies (the engine leaves them in the model dtype); with the `source` and `locator` where the engine assigns those layers their method."""

    scheme: NotRequired[RefScheme]
    no_scheme: NotRequired[str]
    source: RefSource
    locator: str


class SchemeConfigSettingValues(TypedDict):
    setting: str
    value: int | str
    source: RefSource
    locator: str
    quote: str


class SchemeConfig(TypedDict):
    """The layer configuration the scheme hands to kernel selection."""

    weight_type: Dtype
    activation_types: list[Dtype]
    group_sizes: NotRequired[list[int]]
    zero_points: NotRequired[bool]
    weight_storage: NotRequired[Literal['int32', 'int8']]
    activation_quantized: bool
    weight_scales: NotRequired[list[Literal['tensor', 'channel', 'group', 'block']]]
    activation_scales: NotRequired[list[Literal['static-tensor', 'dynamic-tensor', 'static-token', 'dynamic-token']]]
    activation_quant_type: NotRequired[Dtype]
    setting_values: NotRequired[list[SchemeConfigSettingValues]]


class SchemeCapabilityGate(TypedDict):
    """The scheme's capability gate, applied before kernel selection."""

    min: NotRequired[int]
    exact: NotRequired[int]
    platforms: NotRequired[list[Platform]]
    reason: NotRequired[str]
    locator: NotRequired[str]
    on_failure: NotRequired[RefScheme]
    after_installs: NotRequired[list[str]]
    before_first_kernels: NotRequired[bool]


class SchemeCandidatesActivationScalesWithout(TypedDict):
    """The activation quantization keys the scheme hands kernel selection on this platform where the engine finds `kernel` unsupported, in place of the list's (or the config's) `activation_scales`: vLLM's fp8 method asks for dynamic per-token scales only where cutlass_fp8_supported() holds, the test CutlassFP8ScaledMMLinearKernel.is_supported makes, and for dynamic per-tensor scales where it fails. On a target where the kernel is refused outright the walk starts with these keys; where the kernel is a condition (a build it needs), the step for that condition failing walks the later candidates with them."""

    kernel: RefKernel
    activation_scales: list[Literal['static-tensor', 'dynamic-tensor', 'static-token', 'dynamic-token']]
    locator: str
    sources: Sources


class CandidateForcedKernels(TypedDict):
    """One forced kernel and the targets it is forced on."""

    kernel: RefKernel
    capabilities: NotRequired[list[int]]
    except_capabilities: NotRequired[list[int]]


class CandidateForced(TypedDict):
    """The kernels a selector forces on some targets ahead of its list walk, and what it raises when they decline."""

    kernels: list[CandidateForcedKernels]
    failure_message: str
    locator: str


class SchemeCandidatesSubstitution(TypedDict):
    """On this platform the engine returns another scheme instead of this one unless a setting keeps it (vLLM's compressed-tensors FP8 branch on XPU returns CompressedTensorsW8A16Fp8 unless --linear-backend is xpu or torch). The cell then runs only given that setting, walking the list the setting's filter leaves; without it the checkpoint is that scheme's own cell on the target, as a fallback (its kernel walk, conditions and precision). When no value of the setting leads to an accepting kernel, the cell is that fallback. It names a scheme of the same engine whose list for the platform has no substitution in turn."""

    scheme: RefScheme
    setting: str
    values: list[str]
    locator: str


class SchemeCandidates(TypedDict):
    """An ordered candidate list for one platform."""

    platform: Platform
    selector: NotRequired[str]
    kernels: NotRequired[list[RefKernel]]
    no_path: NotRequired[Literal[True]]
    list: NotRequired[str]
    failure_message: NotRequired[str]
    before_first_kernels: NotRequired[bool]
    inferred: NotRequired[bool]
    read_in: NotRequired[list[RefSource]]
    locator: NotRequired[str]
    sources: NotRequired[Sources]
    activation_scales: NotRequired[list[Literal['static-tensor', 'dynamic-tensor', 'static-token', 'dynamic-token']]]
    activation_scales_without: NotRequired[SchemeCandidatesActivationScalesWithout]
    promotions: NotRequired[list[CandidatePromotion]]
    forced: NotRequired[CandidateForced]
    filter: NotRequired[CandidateFilter]
    substitution: NotRequired[SchemeCandidatesSubstitution]
    unread: NotRequired[Text]


class SchemeFields(TypedDict):
    """An engine's quantization scheme: what checkpoint it matches and which kernels it can use."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    sources: Sources
    contested: NotRequired[Contested]
    known_gaps: NotRequired[KnownGaps]
    maturity: NotRequired[Maturity]
    unverified: NotRequired[Unverified]
    engine: RefEngine
    class_name: NotRequired[str]
    method: NotRequired[str]
    predicate: NotRequired[str]
    predicate_order: NotRequired[int]
    matches: NotRequired[Text]
    formats: NotRequired[list[RefFormat]]
    layers: NotRequired[Literal['dense', 'experts']]
    other_layers: NotRequired[SchemeOtherLayers]
    config: SchemeConfig
    capability_gate: NotRequired[SchemeCapabilityGate]
    candidates: list[SchemeCandidates]
    code: Citation


class SupportMatrixRows(TypedDict):
    """A published row or column heading and what it maps to."""

    label: str
    schemes: NotRequired[list[RefScheme]]
    targets: NotRequired[list[RefHardwareTarget]]
    formats: NotRequired[list[RefFormat]]
    note: NotRequired[Text]


class SupportMatrixColumns(TypedDict):
    """A published row or column heading and what it maps to."""

    label: str
    schemes: NotRequired[list[RefScheme]]
    targets: NotRequired[list[RefHardwareTarget]]
    formats: NotRequired[list[RefFormat]]
    note: NotRequired[Text]


class SupportMatrixLegend(TypedDict):
    """One legend entry."""

    symbol: str
    verdict: Literal['yes', 'no', 'partial', 'unknown']
    text: NotRequired[str]


class SupportMatrixFields(TypedDict):
    """A support table as an engine vendor publishes it: claims with their source, compared with derived cells."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    sources: Sources
    contested: NotRequired[Contested]
    known_gaps: NotRequired[KnownGaps]
    maturity: NotRequired[Maturity]
    unverified: NotRequired[Unverified]
    publisher: RefEngine
    published_in: Citation
    read_on: NotRequired[Date]
    releases: NotRequired[list[str]]
    rows: list[SupportMatrixRows]
    columns: list[SupportMatrixColumns]
    cells: list[list[str]]
    legend: list[SupportMatrixLegend]
    footnotes: NotRequired[list[Text]]


class GotchaAppliesWhen(TypedDict):
    """What must hold beyond the answer's engine, scheme and hardware for the trap to bite, where its trigger narrows it to some models, settings or hosts: a support answer still lists the trap, and says when it applies. Each listed condition must hold."""

    layers: NotRequired[Literal['experts']]
    env: NotRequired[list[str]]
    host: NotRequired[Literal['aarch64']]


RefBenchmark: TypeAlias = str


class GotchaDerivedFigures(TypedDict):
    """One derived figure and the arithmetic that gives it."""

    figure: str
    expression: str


class GotchaScopeReleases(TypedDict):
    """The affected releases of one engine as a range, for the site to match: a support answer derived at a release of this engine outside the range does not list the trap. The same range `affected` and `fixed_in` state in words. Either bound may be absent when the evidence does not establish it (a fix known with no known first affected release gives `last` alone), but not both."""

    engine: RefEngine
    first: NotRequired[str]
    last: NotRequired[str]


class GotchaScope(TypedDict):
    """How far the trap reaches, as its evidence bounds it. Required when summary, trigger, symptom, detection or workaround uses a scope word (every, always, all GPUs, any model, never, no fix, ...): the trap-scope check then needs a primary citation here whose locator or quote backs the scope."""

    statement: Text
    affected: NotRequired[str]
    fixed_in: NotRequired[str]
    releases: NotRequired[GotchaScopeReleases]
    sources: Sources


class GotchaFields(TypedDict):
    """A trap: a configuration that fails, misleads, or silently corrupts output."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    sources: Sources
    contested: NotRequired[Contested]
    known_gaps: NotRequired[KnownGaps]
    maturity: NotRequired[Maturity]
    unverified: NotRequired[Unverified]
    severity: Literal['blocker', 'major', 'minor']
    effect: Literal['stops', 'garbage', 'degraded', 'misleads']
    silent: bool
    regime: Literal['weight-only', 'w4a4', 'weight-activation', 'feature-combination', 'backend', 'toolchain', 'measurement', 'conversion']
    trigger: Text
    symptom: Text
    detection: NotRequired[Text]
    workaround: NotRequired[Text]
    messages: NotRequired[list[str]]
    formats: NotRequired[list[RefFormat]]
    accelerators: NotRequired[list[RefAccelerator]]
    platforms: NotRequired[list[Platform]]
    engines: NotRequired[list[RefEngine]]
    kernels: NotRequired[list[RefKernel]]
    schemes: NotRequired[list[RefScheme]]
    layers: NotRequired[Literal['dense', 'experts']]
    native: NotRequired[list[RefFormat]]
    applies_when: NotRequired[GotchaAppliesWhen]
    benchmarks: NotRequired[list[RefBenchmark]]
    derived_figures: NotRequired[list[GotchaDerivedFigures]]
    scope: NotRequired[GotchaScope]


class BenchmarkBaseline(TypedDict):
    """What the value is compared against."""

    benchmark: NotRequired[RefBenchmark]
    description: NotRequired[str]
    value: NotRequired[float]


class BenchmarkFields(TypedDict):
    """A measured or vendor-claimed value, with its baseline and grade."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    sources: Sources
    contested: NotRequired[Contested]
    known_gaps: NotRequired[KnownGaps]
    maturity: NotRequired[Maturity]
    unverified: NotRequired[Unverified]
    format: RefFormat
    model: str
    metric: str
    value: NotRequired[float]
    missing_value: NotRequired[str]
    unit: str
    higher_is_better: NotRequired[bool]
    baseline: NotRequired[BenchmarkBaseline]
    grade: Literal['measured', 'paper', 'vendor-claim', 'community', 'marketing']
    accelerator: NotRequired[RefAccelerator]
    engine: NotRequired[RefEngine]
    kernel: NotRequired[RefKernel]
    conditions: NotRequired[Text]
    date: NotRequired[Date]


RefSupportMatrix: TypeAlias = str


class FindingExplains(TypedDict):
    """A published cell this finding explains."""

    matrix: RefSupportMatrix
    row: str
    column: str


RefAny: TypeAlias = str


class FindingExplainsObservations(TypedDict):
    """One observed cell this finding explains."""

    observation: str
    scheme: RefScheme
    target: RefHardwareTarget


class FindingFields(TypedDict):
    """A verified claim with evidence and a date, possibly correcting another record or explaining why a published cell is wrong."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    sources: Sources
    contested: NotRequired[Contested]
    known_gaps: NotRequired[KnownGaps]
    maturity: NotRequired[Maturity]
    unverified: NotRequired[Unverified]
    claim: Text
    verdict: Literal['confirmed', 'refuted', 'corrected', 'partially-confirmed', 'unresolved']
    conclusion: Text
    verified_on: Date
    evidence: list[Citation]
    explains: NotRequired[list[FindingExplains]]
    concerns: NotRequired[list[RefAny]]
    explains_observations: NotRequired[list[FindingExplainsObservations]]


class TechniqueFields(TypedDict):
    """A method used with quantization that is not itself a number format (calibration, rotation, search)."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    sources: Sources
    contested: NotRequired[Contested]
    known_gaps: NotRequired[KnownGaps]
    maturity: NotRequired[Maturity]
    unverified: NotRequired[Unverified]
    category: Literal['calibration', 'rotation', 'rounding', 'mixed-precision', 'training', 'sparsity', 'kernel-design', 'evaluation']
    applies_to: NotRequired[list[RefFormat]]
    engines: NotRequired[list[RefEngine]]


class TermFields(TypedDict):
    """A word the site's records use that a reader may not know (an engine's name for a number type or a scaling strategy, a vendor's hardware version, a kernel's short name): what it means and where that is stated. The site links the first use of each spelling on a page to where it is defined: the record `defined_by` names, or this record's own page in the glossary."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    spellings: list[str]
    defined_by: NotRequired[RefAny]
    sources: Sources
    contested: NotRequired[Contested]
    known_gaps: NotRequired[KnownGaps]
    maturity: NotRequired[Maturity]
    unverified: NotRequired[Unverified]


class SourceFields(TypedDict):
    """A citable document or code file at a revision."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    sources: Sources
    contested: NotRequired[Contested]
    known_gaps: NotRequired[KnownGaps]
    maturity: NotRequired[Maturity]
    unverified: NotRequired[Unverified]
    type: Literal['seed', 'code', 'docs', 'datasheet', 'paper', 'blog', 'issue', 'web', 'release-notes']
    url: NotRequired[str]
    repository: NotRequired[str]
    package: NotRequired[str]
    path: NotRequired[str]
    revision: NotRequired[str]
    branch: NotRequired[str]
    published: NotRequired[Date]
    accessed: NotRequired[Date]
    publisher: NotRequired[str]


class ObservationEnvironment(TypedDict):
    """The environment the engine's code ran in."""

    torch: NotRequired[str]
    python: NotRequired[str]
    installed: NotRequired[list[str]]
    setup_seconds: NotRequired[float]
    probe_seconds: NotRequired[float]
    release_megabytes: NotRequired[float]
    base_megabytes: NotRequired[float]


class ObservationCellsRuns(TypedDict):
    """Simulated loads that did the same thing (same outcome, same candidate answers), with the worlds and checkpoint variants they cover."""

    worlds: list[str]
    variants: list[str]
    stage: NotRequired[str]
    outcome: Literal['selected', 'refused']
    kernel: NotRequired[str]
    scheme_class: NotRequired[str]
    error_type: NotRequired[str]
    message: NotRequired[str]
    candidates: list[str]


class ObservationCells(TypedDict):
    """The observed outcome of one (scheme, hardware target) cell."""

    scheme: RefScheme
    target: RefHardwareTarget
    verdict: Literal['runs', 'runs-if', 'refused']
    kernel: NotRequired[str]
    kernels: NotRequired[list[str]]
    conditions: NotRequired[list[str]]
    reasons: NotRequired[list[str]]
    runs: list[ObservationCellsRuns]


class ObservationFields(TypedDict):
    """What an engine release's own selection code did for every modelled (scheme, hardware target) cell, run without the hardware, with what lies outside the engine's Python code simulated (the platform facts, compiled extensions and optional packages that `simulated` lists); one record per (engine release, harness version)."""

    name: Name
    summary: Text
    notes: NotRequired[Text]
    sources: Sources
    maturity: NotRequired[Maturity]
    engine: RefEngine
    release: str
    harness_version: int
    observed_on: Date
    environment: NotRequired[ObservationEnvironment]
    simulated: list[str]
    not_reached: list[str]
    stand_in_modules: NotRequired[list[str]]
    platform_classes: NotRequired[list[str]]
    job_errors: NotRequired[list[str]]
    cells: list[ObservationCells]


# Every enum of the schemas, in the schema's order, which is the order the site sorts by:
# `kind.field[.subfield]` for a field's own enum, `defs.name` for a shared definition.
ENUMS: dict[str, tuple[str, ...]] = {
    'accelerator.category': ('datacenter-gpu', 'workstation-gpu', 'consumer-gpu', 'rack-system', 'apple-silicon', 'cpu', 'tpu', 'ai-asic', 'wafer-scale'),
    'accelerator.peak_compute.accumulate': ('fp32', 'fp16'),
    'accelerator.peak_compute.sparsity': ('dense', 'sparse-2:4'),
    'benchmark.grade': ('measured', 'paper', 'vendor-claim', 'community', 'marketing'),
    'defs.cpu-arch': ('x86_64', 'aarch64', 'riscv64', 'ppc64le', 's390x'),
    'defs.cpu-vendor': ('AuthenticAMD', 'GenuineIntel'),
    'defs.dtype': ('float32', 'float16', 'bfloat16', 'float8_e4m3fn', 'float8_e5m2', 'int8', 'uint8', 'int4', 'uint4', 'uint4b8', 'uint8b128', 'float4_e2m1f', 'float8_e8m0fnu', 'int2', 'int3', 'ggml_q4_0', 'ggml_q8_0', 'ggml_q4_k', 'ggml_q5_k', 'ggml_q6_k', 'ggml_iq1_m', 'ggml_q4_1', 'ggml_q5_0', 'ggml_q5_1', 'ggml_iq4_xs', 'ggml_mxfp4', 'ggml_tq1_0', 'ggml_tq2_0', 'ggml_q2_k', 'ggml_q3_k', 'ggml_iq1_s', 'ggml_iq2_xxs', 'ggml_iq2_xs', 'ggml_iq2_s', 'ggml_iq3_xxs', 'ggml_iq3_s', 'ggml_iq4_nl', 'ggml_i2_s', 'exl3_trellis', 'bnb_nf4'),
    'defs.encoding': ('e4m3', 'e5m2', 'e4m3fnuz', 'e5m2fnuz'),
    'defs.isa-feature': ('avx2', 'avx512f', 'avx512bw', 'avx512vl', 'avx512_vnni', 'avx512_bf16', 'avx512_fp16', 'amx_tile', 'amx_bf16', 'amx_int8', 'amx_fp8', 'neon', 'dotprod', 'i8mm', 'sve', 'sve2', 'bf16', 'rvv', 'vsx', 'vxe'),
    'defs.platform': ('cuda', 'rocm', 'xpu', 'cpu', 'tpu', 'hpu', 'neuron', 'metal', 'other'),
    'defs.precision': ('fp64', 'fp32', 'tf32', 'fp16', 'bf16', 'fp8', 'fp8-fnuz', 'int8', 'fp6', 'fp4', 'nvfp4', 'mxfp8', 'mxfp6', 'mxfp4', 'int4'),
    'engine.category': ('serving-engine', 'local-runtime', 'kernel-library', 'compiler', 'quantization-toolkit', 'format-library', 'research-harness'),
    'engine.format_support.status': ('yes', 'partial', 'writes', 'no'),
    'engine.runtime_checks.check': ('package', 'op', 'env', 'other'),
    'finding.verdict': ('confirmed', 'refuted', 'corrected', 'partially-confirmed', 'unresolved'),
    'format.bits_per_weight.basis': ('struct', 'measured', 'nominal'),
    'format.family': ('floating-point', 'integer', 'block-scaled-fp', 'block-scaled-int', 'normal-float', 'gguf-legacy', 'gguf-k-quant', 'gguf-i-quant', 'gguf-ternary', 'ternary', 'codebook', 'mixture', 'toolkit-output', 'category'),
    'format.format_class': ('checkpoint', 'hardware', 'category'),
    'format.regime': ('weight-only', 'weight-activation', 'kv-cache', 'training-time', 'mixed', 'category'),
    'gotcha.applies_when.host': ('aarch64',),
    'gotcha.applies_when.layers': ('experts',),
    'gotcha.effect': ('stops', 'garbage', 'degraded', 'misleads'),
    'gotcha.layers': ('dense', 'experts'),
    'gotcha.regime': ('weight-only', 'w4a4', 'weight-activation', 'feature-combination', 'backend', 'toolchain', 'measurement', 'conversion'),
    'gotcha.severity': ('blocker', 'major', 'minor'),
    'hardware-target.auto_dtypes': ('float16', 'bfloat16', 'float32'),
    'hardware-target.fp8_dtype': ('float8_e4m3fn', 'float8_e4m3fnuz'),
    'hardware-target.model_dtypes': ('float32', 'float16', 'bfloat16'),
    'kernel.activation_handling': ('as-given', 'quantized', 'emulated'),
    'kernel.block_scales.type': ('float32',),
    'kernel.computes_in.accumulate': ('fp32', 'fp16'),
    'kernel.external_gates.effect': ('excludes', 'requires', 'informational'),
    'kernel.external_gates.when.weight_storage': ('int32', 'int8'),
    'kernel.registry': ('mixed-precision-linear', 'scaled-mm-int8', 'scaled-mm-fp8', 'fp4', 'mxfp8', 'moe', 'attention', 'standalone', 'other'),
    'kernel.requirements.check': ('platform', 'capability-min', 'capability-exact', 'capability-max', 'capability-family', 'gfx', 'gfx-excluded', 'cpu-arch', 'cpu-vendor', 'isa', 'weight-type', 'activation-type', 'group-size', 'zero-points', 'weight-only', 'activation-quantized', 'weight-scales', 'activation-scales', 'activation-quant-type', 'package', 'op', 'env', 'shape', 'other'),
    'kernel.requirements.computes.way': ('weight-only', 'dequantized', 'emulated', 'activations-quantized'),
    'kernel.requirements.when.layers': ('dense', 'experts'),
    'kernel.routes.when.layers': ('dense', 'experts'),
    'kernel.without_matrix_instruction.computes': ('converted', 'vector', 'rescaled'),
    'kernel.without_matrix_instruction.unit': ('matrix', 'vector'),
    'observation.cells.runs.outcome': ('selected', 'refused'),
    'observation.cells.verdict': ('runs', 'runs-if', 'refused'),
    'scheme.candidates.activation_scales': ('static-tensor', 'dynamic-tensor', 'static-token', 'dynamic-token'),
    'scheme.candidates.activation_scales_without.activation_scales': ('static-tensor', 'dynamic-tensor', 'static-token', 'dynamic-token'),
    'scheme.config.activation_scales': ('static-tensor', 'dynamic-tensor', 'static-token', 'dynamic-token'),
    'scheme.config.weight_scales': ('tensor', 'channel', 'group', 'block'),
    'scheme.config.weight_storage': ('int32', 'int8'),
    'scheme.layers': ('dense', 'experts'),
    'source.type': ('seed', 'code', 'docs', 'datasheet', 'paper', 'blog', 'issue', 'web', 'release-notes'),
    'support-matrix.legend.verdict': ('yes', 'no', 'partial', 'unknown'),
    'technique.category': ('calibration', 'rotation', 'rounding', 'mixed-precision', 'training', 'sparsity', 'kernel-design', 'evaluation'),
}


_NO_RECORDS: dict[str, Record] = {}  # a kind with no record (never written: one object for every look-up)


class TypedLookups:
    """Index look-ups typed per kind (generated: one overload per kind)."""

    by_kind: dict[str, dict[str, Record]]

    @overload
    def all(self, kind: Literal['format']) -> list[TypedRecord[FormatFields]]: ...

    @overload
    def all(self, kind: Literal['accelerator']) -> list[TypedRecord[AcceleratorFields]]: ...

    @overload
    def all(self, kind: Literal['hardware-target']) -> list[TypedRecord[HardwareTargetFields]]: ...

    @overload
    def all(self, kind: Literal['kernel']) -> list[TypedRecord[KernelFields]]: ...

    @overload
    def all(self, kind: Literal['engine']) -> list[TypedRecord[EngineFields]]: ...

    @overload
    def all(self, kind: Literal['scheme']) -> list[TypedRecord[SchemeFields]]: ...

    @overload
    def all(self, kind: Literal['support-matrix']) -> list[TypedRecord[SupportMatrixFields]]: ...

    @overload
    def all(self, kind: Literal['gotcha']) -> list[TypedRecord[GotchaFields]]: ...

    @overload
    def all(self, kind: Literal['benchmark']) -> list[TypedRecord[BenchmarkFields]]: ...

    @overload
    def all(self, kind: Literal['finding']) -> list[TypedRecord[FindingFields]]: ...

    @overload
    def all(self, kind: Literal['technique']) -> list[TypedRecord[TechniqueFields]]: ...

    @overload
    def all(self, kind: Literal['term']) -> list[TypedRecord[TermFields]]: ...

    @overload
    def all(self, kind: Literal['source']) -> list[TypedRecord[SourceFields]]: ...

    @overload
    def all(self, kind: Literal['observation']) -> list[TypedRecord[ObservationFields]]: ...

    @overload
    def all(self, kind: str) -> list[TypedRecord[Any]]: ...

    def all(self, kind: str) -> list[TypedRecord[Any]]:
        records = self.by_kind.get(kind, _NO_RECORDS)
        return [records[k] for k in sorted(records)]

    @overload
    def get(self, kind: Literal['format'], record_id: str) -> TypedRecord[FormatFields] | None: ...

    @overload
    def get(self, kind: Literal['accelerator'], record_id: str) -> TypedRecord[AcceleratorFields] | None: ...

    @overload
    def get(self, kind: Literal['hardware-target'], record_id: str) -> TypedRecord[HardwareTargetFields] | None: ...

    @overload
    def get(self, kind: Literal['kernel'], record_id: str) -> TypedRecord[KernelFields] | None: ...

    @overload
    def get(self, kind: Literal['engine'], record_id: str) -> TypedRecord[EngineFields] | None: ...

    @overload
    def get(self, kind: Literal['scheme'], record_id: str) -> TypedRecord[SchemeFields] | None: ...

    @overload
    def get(self, kind: Literal['support-matrix'], record_id: str) -> TypedRecord[SupportMatrixFields] | None: ...

    @overload
    def get(self, kind: Literal['gotcha'], record_id: str) -> TypedRecord[GotchaFields] | None: ...

    @overload
    def get(self, kind: Literal['benchmark'], record_id: str) -> TypedRecord[BenchmarkFields] | None: ...

    @overload
    def get(self, kind: Literal['finding'], record_id: str) -> TypedRecord[FindingFields] | None: ...

    @overload
    def get(self, kind: Literal['technique'], record_id: str) -> TypedRecord[TechniqueFields] | None: ...

    @overload
    def get(self, kind: Literal['term'], record_id: str) -> TypedRecord[TermFields] | None: ...

    @overload
    def get(self, kind: Literal['source'], record_id: str) -> TypedRecord[SourceFields] | None: ...

    @overload
    def get(self, kind: Literal['observation'], record_id: str) -> TypedRecord[ObservationFields] | None: ...

    @overload
    def get(self, kind: str, record_id: str) -> TypedRecord[Any] | None: ...

    def get(self, kind: str, record_id: str) -> TypedRecord[Any] | None:
        return self.by_kind.get(kind, _NO_RECORDS).get(record_id)

    @overload
    def must(self, kind: Literal['format'], record_id: str) -> TypedRecord[FormatFields]: ...

    @overload
    def must(self, kind: Literal['accelerator'], record_id: str) -> TypedRecord[AcceleratorFields]: ...

    @overload
    def must(self, kind: Literal['hardware-target'], record_id: str) -> TypedRecord[HardwareTargetFields]: ...

    @overload
    def must(self, kind: Literal['kernel'], record_id: str) -> TypedRecord[KernelFields]: ...

    @overload
    def must(self, kind: Literal['engine'], record_id: str) -> TypedRecord[EngineFields]: ...

    @overload
    def must(self, kind: Literal['scheme'], record_id: str) -> TypedRecord[SchemeFields]: ...

    @overload
    def must(self, kind: Literal['support-matrix'], record_id: str) -> TypedRecord[SupportMatrixFields]: ...

    @overload
    def must(self, kind: Literal['gotcha'], record_id: str) -> TypedRecord[GotchaFields]: ...

    @overload
    def must(self, kind: Literal['benchmark'], record_id: str) -> TypedRecord[BenchmarkFields]: ...

    @overload
    def must(self, kind: Literal['finding'], record_id: str) -> TypedRecord[FindingFields]: ...

    @overload
    def must(self, kind: Literal['technique'], record_id: str) -> TypedRecord[TechniqueFields]: ...

    @overload
    def must(self, kind: Literal['term'], record_id: str) -> TypedRecord[TermFields]: ...

    @overload
    def must(self, kind: Literal['source'], record_id: str) -> TypedRecord[SourceFields]: ...

    @overload
    def must(self, kind: Literal['observation'], record_id: str) -> TypedRecord[ObservationFields]: ...

    @overload
    def must(self, kind: str, record_id: str) -> TypedRecord[Any]: ...

    def must(self, kind: str, record_id: str) -> TypedRecord[Any]:
        """The record, which the caller knows exists (a KeyError names it otherwise)."""
        record = self.by_kind.get(kind, _NO_RECORDS).get(record_id)
        if record is None:
            raise KeyError(f"{kind}/{record_id}")
        return record
