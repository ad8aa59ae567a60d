// SPDX-License-Identifier: MIT
#include "app/explorer/session.h"

#include "app/explorer/stepsummary.h"
#include "core/chakra.h"
#include "core/error.h"
#if defined(FLINT_HAVE_MODELS)
#include "engine/modelcompiler.h"
#endif

#include <QElapsedTimer>
#include <QFileInfo>
#include <QLocale>
#include <QThreadPool>
#include <QUndoCommand>

namespace flint::app {
namespace {

QString describe(const std::exception& e)
{
    return QString::fromStdString(e.what());
}

/// One undo step: what the session showed before a change and after it. The change has taken
/// effect when the step is pushed, so the first redo (QUndoStack::push calls it) does nothing.
class ScenarioStep : public QUndoCommand {
public:
    /// Network edits closer together than this are one step (a spin box stepped several times).
    static constexpr qint64 kMergeMilliseconds = 1000;

    ScenarioStep(Session& session, Session::State before, Session::State after, const QString& text, bool clusterEdit)
        : QUndoCommand(text)
        , m_session(session)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_clusterEdit(clusterEdit)
    {
        m_lastEdit.start();
    }

    void undo() override { m_session.restore(m_before); }
    void redo() override
    {
        if (m_pushed)
            m_session.restore(m_after);
        m_pushed = true;
    }
    int id() const override { return m_clusterEdit ? 1 : -1; }
    bool mergeWith(const QUndoCommand* other) override
    {
        if (m_lastEdit.elapsed() > kMergeMilliseconds)
            return false;
        m_after = static_cast<const ScenarioStep*>(other)->m_after;
        m_lastEdit.restart();
        return true;
    }

private:
    Session& m_session;
    Session::State m_before;
    Session::State m_after;
    bool m_clusterEdit;
    bool m_pushed = false;
    QElapsedTimer m_lastEdit;
};

} // namespace

Session::Session(QObject* parent)
    : QObject(parent)
{
#if defined(FLINT_HAVE_MODELS)
    m_compiler = std::make_shared<core::model::ModelCompiler>();
#endif
    if (auto preset = core::clusterPreset(kDefaultPreset, 8))
        m_scenario.cluster = *preset;
    connect(&m_jobs, &views::JobRunner::busyChanged, this, &Session::busyChanged);
    m_undo.setUndoLimit(kUndoLimit);
}

Session::~Session()
{
    // The jobs read the session's members (the scenario, the compiler, the estimate cache): they end
    // before any member goes. A quit while an estimate runs (a screenshot whose --measured run failed
    // to load) used to free them under the estimate.
    m_jobs.stop();
}

void Session::open(const QString& path)
{
    load(path, m_scenario, true, false);
}

void Session::load(const QString& path, const engine::Scenario& base, bool record, bool baseCluster)
{
    const std::string file = QFileInfo(path).absoluteFilePath().toStdString();
    m_jobs.start(
        views::JobRunner::Kind::Load, tr("Loading %1…").arg(QFileInfo(path).fileName()),
        [this, file, path, base, record, baseCluster](const core::JobControl& control) -> std::function<void()> {
            try {
                engine::Scenario scenario = base;
                scenario.model.reset();
                scenario.workload = std::make_shared<const core::LoadedWorkload>(core::loadWorkload(file, {}, control));
                auto prepared = std::make_shared<const engine::Evaluation>(engine::prepare(scenario, nullptr, control));
                // The restored state's cluster, or the one shown when the load ends (an edit
                // made meanwhile counts).
                return [this, prepared, path, record, baseCluster, cluster = base.cluster] {
                    adopt(std::make_shared<const engine::Evaluation>(
                              engine::rebind(*prepared, baseCluster ? cluster : m_scenario.cluster)),
                          path, record, true);
                };
            } catch (const core::Cancelled&) {
                throw;
            } catch (const std::exception& e) {
                const QString details = describe(e);
                return [this, details, path] {
                    Q_EMIT failed(tr("Cannot open %1").arg(QFileInfo(path).fileName()), details);
                };
            }
        });
}

void Session::openWorkload(std::shared_ptr<const core::LoadedWorkload> workload, const QString& name)
{
    engine::Scenario scenario = m_scenario;
    scenario.model.reset();
    scenario.workload = std::move(workload);
    adoptWorkload(scenario, name, true, false);
}

void Session::adoptWorkload(const engine::Scenario& scenario, const QString& name, bool record, bool fromDisk)
{
    m_jobs.cancel(views::JobRunner::Kind::Load); // a workload built in memory replaces what a load would bring
    adopt(std::make_shared<const engine::Evaluation>(engine::prepare(scenario, nullptr)), name, record, fromDisk);
}

void Session::openModel(const core::model::TransformerConfig& model, const core::model::ParallelConfig& parallel)
{
    engine::Scenario scenario = m_scenario;
    scenario.model = model;
    scenario.parallel = parallel;
    scenario.workload.reset();
    openScenario(scenario);
}

void Session::openScenario(const engine::Scenario& scenario)
{
    if (!scenario.model) {
        adoptWorkload(scenario, m_path, true, m_fromDisk);
        return;
    }
    compile(scenario, true);
}

void Session::restore(const State& state, bool record)
{
    if (state.scenario.model)
        compile(state.scenario, record);
    else if (state.scenario.workload)
        adoptWorkload(state.scenario, state.path, record, state.fromDisk);
    else
        load(state.path, state.scenario, record, true); // read from disk, not kept (State::kept)
}

void Session::evaluateBeside(const State& state, int token)
{
    const QString name = state.scenario.model ? StepSummary::modelTitle(*state.scenario.model, state.scenario.parallel)
                                              : QFileInfo(state.path).fileName();
    m_jobs.start(
        views::JobRunner::Kind::Baseline, tr("Estimating %1 as the baseline…").arg(name),
        [this, state, name, token, compiler = m_compiler](const core::JobControl& control) -> std::function<void()> {
            try {
                engine::Scenario scenario = state.scenario;
                // A file's workload not kept with the row (State::kept) is read again.
                if (!scenario.model && !scenario.workload)
                    scenario.workload = std::make_shared<const core::LoadedWorkload>(
                        core::loadWorkload(QFileInfo(state.path).absoluteFilePath().toStdString(), {}, control));
                auto evaluation =
                    std::make_shared<const engine::Evaluation>(engine::evaluate(scenario, compiler.get(), control));
                if (!evaluation->problem.empty() || !evaluation->result) {
                    const QString details = QString::fromStdString(evaluation->problem);
                    return [this, name, details] { Q_EMIT failed(tr("Cannot estimate %1").arg(name), details); };
                }
                return [this, token, evaluation] { Q_EMIT evaluatedBeside(token, evaluation); };
            } catch (const core::Cancelled&) {
                throw;
            } catch (const std::exception& e) {
                const QString details = describe(e);
                return [this, name, details] { Q_EMIT failed(tr("Cannot estimate %1").arg(name), details); };
            }
        });
}

Session::State Session::State::kept(std::size_t maxOps) const
{
    State out = *this;
    if (out.scenario.model || !out.scenario.workload || !out.fromDisk)
        return out;
    std::size_t ops = 0;
    for (const auto& program : out.scenario.workload->workload.programs)
        ops += program->ops.size();
    if (ops > maxOps)
        out.scenario.workload.reset();
    return out;
}

void Session::compile(const engine::Scenario& scenario, bool record)
{
#if defined(FLINT_HAVE_MODELS)
    const QString name = StepSummary::modelTitle(*scenario.model, scenario.parallel);
    m_jobs.start(
        views::JobRunner::Kind::Load, tr("Compiling %1…").arg(name),
        [this, scenario, name, record,
         compiler = m_compiler](const core::JobControl& control) -> std::function<void()> {
            try {
                auto prepared =
                    std::make_shared<const engine::Evaluation>(engine::prepare(scenario, compiler.get(), control));
                if (!prepared->problem.empty()) {
                    const QString details = QString::fromStdString(prepared->problem);
                    return [this, name, details] { Q_EMIT failed(tr("Cannot compile %1").arg(name), details); };
                }
                return [this, prepared, name, record] {
                    Q_EMIT modelCompiled(prepared->compiled);
                    adopt(prepared, name, record, false);
                };
            } catch (const core::Cancelled&) {
                throw;
            } catch (const std::exception& e) {
                const QString details = describe(e);
                return [this, details, name] { Q_EMIT failed(tr("Cannot compile %1").arg(name), details); };
            }
        });
#else
    Q_UNUSED(scenario);
    Q_UNUSED(record);
    Q_EMIT failed(tr("Built-in models need the MLIR frontend"),
                  tr("This build has no MLIR frontend (FLINT_BUILD_MLIR=OFF), which built-in models compile through."));
#endif
}

void Session::adopt(std::shared_ptr<const engine::Evaluation> prepared, const QString& path, bool record, bool fromDisk)
{
    const State before = state();
    const bool hadState = m_prepared != nullptr;
    retire(m_prepared);
    m_prepared = std::move(prepared);
    m_scenario = m_prepared->scenario;
    m_path = path;
    m_fromDisk = fromDisk;
    if (record && hadState) {
        const auto& model = m_scenario.model;
        const bool sameModel = model && before.scenario.model && before.scenario.model->name == model->name;
        recordStep(before,
                   sameModel ? tr("strategy %1").arg(StepSummary::strategy(m_scenario.parallel))
                   : model   ? tr("open %1").arg(QString::fromStdString(model->title))
                             : tr("open %1").arg(QFileInfo(path).fileName()),
                   false);
    }
    Q_EMIT scenarioChanged(m_scenario);
    Q_EMIT workloadAvailable(m_prepared->workload, m_path);
    startEstimate();
}

void Session::retire(std::shared_ptr<const void> old)
{
    if (old)
        m_retired.push_back(std::move(old));
}

void Session::releaseRetired()
{
    if (m_retired.empty())
        return;
    // Whatever else still holds them (a view, the history, an undo step) keeps them alive; when these
    // are the last references, the memory is freed on the worker.
    auto bag = std::make_shared<std::vector<std::shared_ptr<const void>>>(std::move(m_retired));
    m_retired.clear();
    QThreadPool::globalInstance()->start([bag] { bag->clear(); });
}

void Session::recordStep(const State& before, const QString& text, bool clusterEdit)
{
    m_undo.push(new ScenarioStep(*this, before.kept(), state().kept(), text, clusterEdit));
}

void Session::exportChakra(const QString& prefix)
{
    std::shared_ptr<const core::LoadedWorkload> loaded = workload();
    if (!loaded)
        return;
    m_jobs.start(views::JobRunner::Kind::Export, tr("Writing Chakra traces %1…").arg(prefix),
                 [this, loaded, prefix](const core::JobControl&) -> std::function<void()> {
                     try {
                         const auto written = core::writeChakraWorkload(loaded->workload, prefix.toStdString());
                         return [this, count = written.size(), prefix] {
                             Q_EMIT exported(
                                 tr("Wrote %n file(s) for %1", nullptr, static_cast<int>(count)).arg(prefix));
                         };
                     } catch (const std::exception& e) {
                         const QString details = describe(e);
                         return [this, details, prefix] {
                             Q_EMIT failed(tr("Cannot write the Chakra traces %1").arg(prefix), details);
                         };
                     }
                 });
}

void Session::setCluster(const core::Cluster& cluster)
{
    changeCluster(cluster, tr("network edit"), true);
}

void Session::changeCluster(const core::Cluster& cluster, const QString& step, bool mergeable)
{
    if (!m_prepared) {
        m_scenario.cluster = cluster;
        Q_EMIT scenarioChanged(m_scenario);
        return;
    }
    const State before = state();
    auto rebound = std::make_shared<const engine::Evaluation>(engine::rebind(*m_prepared, cluster));
    m_prepared = rebound;
    m_scenario = rebound->scenario;
    recordStep(before, step, mergeable);
    Q_EMIT scenarioChanged(m_scenario);
    startEstimate();
}

void Session::choosePreset(const QString& name)
{
    const std::int64_t ranks = m_prepared ? m_scenario.ranks() : 8;
    if (auto preset = core::clusterPreset(name.toStdString(), ranks))
        changeCluster(*preset, tr("cluster %1").arg(name), false);
}

void Session::startEstimate()
{
    const std::shared_ptr<const engine::Evaluation> prepared = m_prepared;
    m_jobs.start(views::JobRunner::Kind::Estimate,
                 tr("Estimating on %1…").arg(QString::fromStdString(prepared->scenario.cluster.name)),
                 [this, prepared](const core::JobControl& control) -> std::function<void()> {
                     try {
                         auto evaluation = std::make_shared<engine::Evaluation>(*prepared);
                         // A network edit re-estimates the same programs: what the estimator worked
                         // out from them alone is kept between estimates.
                         evaluation->scenario.options.cache = m_estimateCache;
                         engine::estimate(*evaluation, control);
                         return [this, evaluation] {
                             retire(std::move(m_evaluation));
                             m_evaluation = evaluation;
                             Q_EMIT estimateAvailable(m_evaluation);
                             releaseRetired(); // the views have let go of the previous estimate
                             if (m_measured)
                                 startValidation();
                         };
                     } catch (const core::Cancelled&) {
                         throw;
                     } catch (const std::exception& e) {
                         const QString details = describe(e);
                         const QString cluster = QString::fromStdString(prepared->scenario.cluster.name);
                         return [this, details, cluster] {
                             Q_EMIT failed(tr("Cannot estimate this workload on %1").arg(cluster), details);
                             releaseRetired();
                         };
                     }
                 });
}

void Session::compareWithMeasured(const QString& path)
{
    m_requestedMeasuredPath = path;
    if (path.isEmpty()) {
        m_jobs.cancel(views::JobRunner::Kind::Validate);
        m_measured.reset();
        m_measuredPath.clear();
        m_validation.reset();
        Q_EMIT validationAvailable(nullptr);
        return;
    }
    // Until the new run is read no estimate is compared: a comparison with the old run would start a
    // Validate job and cancel this read.
    m_measured.reset();
    m_jobs.start(views::JobRunner::Kind::Validate, tr("Reading the measured run %1…").arg(path),
                 [this, path](const core::JobControl& control) -> std::function<void()> {
                     try {
                         auto run = std::make_shared<core::measured::MeasuredWorkload>(
                             core::loadMeasuredRun(path.toStdString(), {}, control));
                         return [this, run, path] {
                             m_measured = run;
                             m_measuredPath = path;
                             if (m_evaluation && m_evaluation->result)
                                 startValidation();
                         };
                     } catch (const core::Cancelled&) {
                         throw;
                     } catch (const std::exception& e) {
                         const QString details = describe(e);
                         return [this, details] { Q_EMIT failed(tr("Cannot read the measured run"), details); };
                     }
                 });
}

void Session::startValidation()
{
    const std::shared_ptr<const engine::Evaluation> evaluation = m_evaluation;
    const std::shared_ptr<const core::measured::MeasuredWorkload> run = m_measured;
    const QString path = m_measuredPath;
    if (!evaluation || !evaluation->result || !evaluation->workload || !run)
        return;
    // The replay takes every time from the run (compute, host gaps and collectives all carry their
    // measured durations), so no cluster edit changes it: the last comparison's is reused.
    const std::shared_ptr<const core::EstimateResult> replayed =
        m_validation && m_validation->run == run ? m_validation->replay : nullptr;
    m_jobs.start(
        views::JobRunner::Kind::Validate, tr("Comparing with the measured run…"),
        [this, evaluation, run, path, replayed](const core::JobControl& control) -> std::function<void()> {
            auto report = std::make_shared<ValidationReport>();
            report->run = run;
            report->path = path;
            report->evaluation = evaluation;
            report->deviceMismatch =
                StepSummary::translated(core::measured::deviceMismatch(*run, evaluation->scenario.cluster));
            const core::Workload& workload = evaluation->workload->workload;
            if (workload.rankCount() != run->workload.rankCount()) {
                report->problem = tr("The measured run has %1 ranks and this workload %2: compare a "
                                     "workload with a run of the same size.")
                                      .arg(QLocale().toString(static_cast<qlonglong>(run->workload.rankCount())),
                                           QLocale().toString(static_cast<qlonglong>(workload.rankCount())));
            } else {
                try {
                    // Measured compute with modelled communication on the estimate's cluster, and
                    // the replay of everything measured.
                    core::EstimateOptions options = evaluation->scenario.options;
                    options.commMatrix = false;
                    options.timing = core::ComputeTiming::Recorded;
                    const auto measuredCompute =
                        core::estimate(run->workload, evaluation->scenario.cluster, options, control);
                    options.recordedCommunication = true;
                    const auto replay =
                        replayed ? replayed
                                 : core::estimate(run->workload, evaluation->scenario.cluster, options, control);
                    report->validation =
                        core::measured::validate(workload, *evaluation->result, *run, *replay, *measuredCompute);
                    report->replay = replay;
                } catch (const core::Cancelled&) {
                    throw;
                } catch (const std::exception& e) {
                    report->problem = describe(e);
                }
            }
            return [this, report] {
                m_validation = report;
                Q_EMIT validationAvailable(m_validation);
            };
        });
}

} // namespace flint::app
