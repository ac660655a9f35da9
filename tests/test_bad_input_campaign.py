"""The bad-input campaign over the library's public callables (issues 14 and 23).

Every public function and method of the library is called once validly and then with each
argument replaced, one at a time, by each invalid value of its kind and by the extreme values of
its type (tests/campaign.py; the specs are in tests/campaign_ode.py, campaign_linear.py and
campaign_elements.py). Each invalid call must raise a TypeError or ValueError (or a guard's
documented error) whose message names the argument; an extreme value must be refused the same way
or give a finite result; no call may hang past its few seconds, change its inputs or print. A
summary test reports the counts by outcome and module; a coverage test compares the campaign with
the library's public names; a grader test puts a symbolic link in a submission folder.
"""

import builtins
import collections
import io
import re
from pathlib import Path

import pytest

import campaign_elements
import campaign_linear
import campaign_ode
from campaign_known import KNOWN_NOT_CLEAR
from campaign import GOOD, INPUT_CLASSES, STATUSES, Spec, covered, module_of, public_callables, run_spec
from simlab.course import check

# --- The course layer's self-check helpers: a reference of None or NaN is the lab's bug (issue 23) ---

COURSE_SPECS = [
    *[Spec(f"check.{name}", getattr(check, name), dict(title="x", answer=answer, reference=answer),
           dict(rtol="nonneg", atol="nonneg"),
           extra=[("reference", None), ("reference", float("nan")), ("reference", "abc"), *more])
      for name, answer, more in (("check_array", [1.0, 2.0], [("reference", [float("nan"), 2.0]),
                                                             ("reference", [[1.0, 2.0], [3.0]])]),
                                 ("check_value", 1.5, [("reference", [1.0, 2.0])]))],
]

SPECS = campaign_ode.SPECS + campaign_linear.SPECS + campaign_elements.SPECS + COURSE_SPECS

#: Public callables the campaign leaves out, and why: they are not a boundary where a user's
#: values arrive unchecked. A name ending in a module excludes the module's every callable.
EXCLUDED = {
    "simlab.validation": "the argument checkers themselves (tests/test_validation.py)",
    "simlab.delay.as_history": "an argument checker of lsim's u_before (m is lsim's number of inputs)",
    **{f"simlab.{model}.{method}": "reads a field of a state that the model itself made (initial_state, stepper)"
       for model in ("friction.models.LuGre", "revised_lugre.RevisedLuGre")
       for method in ("deflection", "film_thickness")},
    "simlab.guards": "the guards' errors and the step-count guard, called by the library with values it computed",
    "simlab.jit": "the compiler switch (kernel, compiled) and the float helpers (exp, sign) of the kernels",
    "simlab.recurrence": "the recurrence engine of lsim and structure.simulate, called with arrays they checked",
    "simlab.friction.kernels": "the friction formulas as kernels over floats, 'no checks' by design (module "
                               "docstring): the models check their parameters once and call them",
    "simlab.plants.dc_motor_kernels": "compiled loop of simulate_drive (checked there)",
    "simlab.plants.pneumatic_kernels": "compiled loop of simulate_cylinder (checked there)",
    "simlab.revised_lugre_kernels": "compiled kernels of the revised LuGre model (checked by its classes)",
    **{f"simlab.friction.block.{name}": "compiled loop of the spring-block simulators (checked there)"
       for name in ("block_step", "block_run", "spring_block_rates", "explicit_run", "bristle_response")},
    "simlab.friction.sweep.block_sweep": "compiled loop of the sweeps (checked there)",
    "simlab.friction.models.FrictionModel": "the abstract interface; its methods are called on LuGre, "
                                            "StaticFriction and RevisedLuGre",
    "simlab.results.Result": "the base class of results",
    **{name: "a result the library builds and returns (its methods with arguments are covered)" for name in (
        "simlab.integrators.Trajectory", "simlab.variable_step.VariableStepResult",
        "simlab.multistep.MultistepTrajectory", "simlab.implicit.ImplicitTrajectory", "simlab.realtime.RealTimeResult",
        "simlab.realtime.InputUse", "simlab.similarity.LinearResponse", "simlab.sampled_data.SampledDataResult",
        "simlab.sampled_data.SampledResponse", "simlab.sampled_data.DiscreteClosedLoop",
        "simlab.sampled_data.StabilityLimit", "simlab.sampled_data.Ripple", "simlab.delay.DelayDiscretization",
        "simlab.delay_approximation.PadeStep", "simlab.delay_approximation.PadeComparison",
        "simlab.elementwise.ElementCoefficients", "simlab.structure.StructureResult",
        "simlab.lti.reduction.MinrealResult", "simlab.lti.reduction.BalredResult", "simlab.response.StepMetrics",
        "simlab.friction.models.SFunctionResult", "simlab.friction.block.SpringBlockResult",
        "simlab.friction.block.FrictionResponse", "simlab.friction.sweep.BlockSweep",
        "simlab.plants.dc_motor.DriveResult", "simlab.plants.pneumatic.CylinderResult",
        "simlab.plants.dc_motor.RegulatorDesign", "simlab.plants.dc_motor.DesignCheck",
        "simlab.plants.dc_motor.DisturbancePeak", "simlab.revised_lugre.RevisedLuGreState")},
    **{name: "a method table (data the library defines)" for name in (
        "simlab.integrators.Method", "simlab.multistep.MultistepMethod", "simlab.realtime.RealTimeMethod")},
}

pytestmark = pytest.mark.filterwarnings("ignore")
RESULTS = {}


def _outcomes(spec):
    if spec.label not in RESULTS:
        RESULTS[spec.label] = run_spec(spec)
    return RESULTS[spec.label]


def _line(outcome):
    return f"{outcome.status}: {outcome.argument} = {outcome.value} ({outcome.kind}): {outcome.detail}"


def test_the_labels_are_unique():
    counts = collections.Counter(spec.label for spec in SPECS)
    assert not [label for label, count in counts.items() if count > 1]


def _known(spec, outcome):
    """True for a row of tests/campaign_known.py: an older module's call that is not clear yet."""
    return (spec.label, outcome.argument, str(outcome.value), outcome.status) in KNOWN_NOT_CLEAR


@pytest.mark.parametrize("spec", SPECS, ids=[spec.label for spec in SPECS])
def test_every_invalid_call_gets_a_clear_error(spec):
    """Every call clear or accepted, except the listed rows of older modules (which may only go away)."""
    bad = [outcome for outcome in _outcomes(spec) if outcome.status not in GOOD and not _known(spec, outcome)]
    assert not bad, "\n".join(map(_line, bad))


NEWER_MODULES = ("variable_step", "multistep", "realtime", "implicit", "delay", "delay_approximation", "digital",
                 "sampled_data", "accuracy", "stability", "similarity", "response", "integrators")


def test_the_modules_of_issue_23_have_no_listed_exception():
    """The modules the issue names are at 100 % clear: none of them may appear in the known list."""
    public = public_callables()
    labels = {spec.label: module_of(spec, public) for spec in SPECS}
    listed = {labels.get(label, label) for label, *_ in KNOWN_NOT_CLEAR}
    assert not [module for module in listed if str(module).split(".")[-1] in NEWER_MODULES], listed


def summary(specs, outcomes):
    """The counts of outcomes by module and by class of input, as two tables (with a total)."""
    public = public_callables()
    by_module = collections.defaultdict(collections.Counter)
    by_class = collections.defaultdict(collections.Counter)
    for spec in specs:
        by_module[module_of(spec, public)].update(outcome.status for outcome in outcomes[spec.label])
        for outcome in outcomes[spec.label]:
            by_class[outcome.group][outcome.status] += 1
    total = sum(by_module.values(), collections.Counter())
    lines = []
    for title, rows in (("module", sorted(by_module.items())),
                        ("class of input", [(name, by_class[name]) for name in INPUT_CLASSES])):
        lines.append(f"{title:32s} " + " ".join(f"{status:>8s}" for status in STATUSES))
        for name, counts in [*rows, ("total", total)]:
            lines.append(f"{name:32s} " + " ".join(f"{counts[status]:8d}" for status in STATUSES))
    return total, "\n".join(lines)


def test_campaign_size_and_outcome_by_class():
    outcomes = {spec.label: _outcomes(spec) for spec in SPECS}
    total, table = summary(SPECS, outcomes)
    calls = sum(total.values())
    print(f"\nbad-input campaign: {calls} calls over {len(SPECS)} specs\n{table}")
    classes = collections.Counter(outcome.group for spec_outcomes in outcomes.values() for outcome in spec_outcomes)
    assert calls >= 5000
    assert classes["wrong signature"] >= 60 and classes["ragged or empty array"] >= 500
    assert classes["denormal or huge number"] >= 800 and classes["tolerance at the edge"] >= 40
    known = sum(_known(spec, outcome) for spec in SPECS for outcome in outcomes[spec.label])
    assert total["clear"] + total["accepted"] + known == calls, "not clear: " + ", ".join(
        f"{status} {total[status]}" for status in STATUSES if status not in GOOD and total[status])
    assert total["hang"] == total["mutated"] == total["printed"] == 0


def test_every_public_callable_is_in_the_campaign_or_excluded_with_a_reason():
    public = public_callables()
    done = covered(SPECS, public)

    def excluded(canonical):
        return any(canonical == name or canonical.startswith(name + ".") for name in EXCLUDED)

    missing = sorted(name for name in public if name not in done and not excluded(name))
    assert not missing, "public callables that no spec calls:\n" + "\n".join(missing)


# --- The grader and links in a submission folder (issue 23, item 6) ---

SECRET = "TOKEN-issue-23-outside-the-folder"


@pytest.fixture
def linked_folder(tmp_path):
    """A submission folder with a file, a link to a file outside it and a link to a folder outside it."""
    outside = tmp_path / "outside"
    (outside / "elsewhere").mkdir(parents=True)
    (outside / "secret.ipynb").write_text('{"note": "%s"}' % SECRET, encoding="utf-8")
    (outside / "elsewhere" / "z.ipynb").write_text('{"note": "%s"}' % SECRET, encoding="utf-8")
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "a.ipynb").write_text("this is not a notebook", encoding="utf-8")  # graded without a kernel
    (folder / "y.ipynb").symlink_to(outside / "secret.ipynb")
    (folder / "linked").symlink_to(outside / "elsewhere", target_is_directory=True)
    return folder, outside


def _record_reads(monkeypatch, outside):
    """Record every file under ``outside`` that is opened (open, Path.read_*, nbformat.read)."""
    opened = []
    real_open = io.open

    def watched(file, *args, **kwargs):
        if isinstance(file, (str, Path)) and Path(file).resolve().is_relative_to(outside.resolve()):
            opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", watched)
    monkeypatch.setattr(builtins, "open", watched)
    return opened


def test_the_grader_reports_a_link_that_leaves_the_submission_folder_and_does_not_read_it(
        linked_folder, tmp_path, monkeypatch):
    from simlab.course import grade

    folder, outside = linked_folder
    out = tmp_path / "out"
    opened = _record_reads(monkeypatch, outside)
    try:
        report = grade.grade("lab01", [folder], out)
    except grade.GradeError as error:
        said = str(error)
    else:
        texts = [path.read_text(encoding="utf-8") for path in out.rglob("*") if path.is_file()]
        said = repr(report) + "\n".join(texts)
        assert not [text for text in texts if SECRET in text]
    monkeypatch.undo()
    assert not opened, f"the grader opened files outside the submission folder: {opened}"
    assert "y.ipynb" in said and "linked" in said and re.search(r"link", said), said[:2000]
    assert not [path for path in out.rglob("*") if re.search("secret|outside|elsewhere", path.name)]
