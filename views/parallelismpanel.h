// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/modelconfig.h"

#include <vector>

#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;
class QTimer;
QT_END_NAMESPACE

namespace flint::views {

/// The parallelism controls of a built-in model (docs/models.md): the model, every parallel degree,
/// the pipeline schedule, microbatches, ZeRO, recomputation, dtype and phase. Every edit is debounced
/// and checked with validateStrategy(); a valid strategy is announced with strategyChanged(), an
/// invalid one is explained in the panel (why, and what would work) and announced with nothing.
/// The panel never compiles or estimates itself.
class ParallelismPanel : public QWidget {
    Q_OBJECT

public:
    explicit ParallelismPanel(QWidget* parent = nullptr);

    /// Shows `model` and `parallel` in the controls without emitting strategyChanged().
    void setStrategy(const core::model::TransformerConfig& model, const core::model::ParallelConfig& parallel);
    /// Adds a model read from a file to the model list and selects it (emits strategyChanged()).
    void addModel(const core::model::TransformerConfig& model);
    core::model::TransformerConfig model() const;
    core::model::ParallelConfig parallel() const;
    /// The problems validateStrategy() found in the current controls, as shown ("" when valid).
    QString problems() const;
    /// Shows the figures of the last estimate (HTML).
    void setFigures(const QString& html);
    QString figures() const;
    /// Greys the figures out while a new strategy compiles and estimates, or while an edit is
    /// invalid: they are still the previous strategy's (its tooltip says so).
    void setFiguresStale(bool stale);
    bool figuresStale() const;
    /// Enables the strategy controls while a built-in model is shown. Inactive (a trace or module is
    /// open, whose parallelism the file fixes) every control but the model choice and File… is
    /// disabled, the model choice shows none and the panel says `why`: choosing a model then opens it
    /// with a default strategy in place of the file, a deliberate act, never a side effect of editing
    /// a degree that does not apply.
    void setActive(bool active, const QString& why = {});
    bool isActive() const { return m_active; }

    /// Milliseconds between the last edit and strategyChanged(): enough to take several degrees set
    /// at once (a restored state, a held arrow) as one change. Typed numbers count when committed
    /// (Enter, Tab or an arrow: the spin boxes do not track the keyboard), not at every digit.
    static constexpr int kDebounceMs = 40;

Q_SIGNALS:
    void strategyChanged(const flint::core::model::TransformerConfig& model,
                         const flint::core::model::ParallelConfig& parallel);
    /// The user asked for a model file (the window shows the file dialog).
    void openModelFileRequested();

private:
    void edited();
    void check();
    void updateRanks();
    /// Enables the controls that apply to the chosen ZeRO stage and expert parallelism.
    void enableDependentControls();

    std::vector<core::model::TransformerConfig> m_models;
    QComboBox* m_model = nullptr;
    QFormLayout* m_form = nullptr;
    QLabel* m_ranks = nullptr;
    QSpinBox* m_tp = nullptr;
    QSpinBox* m_pp = nullptr;
    QSpinBox* m_dp = nullptr;
    QSpinBox* m_cp = nullptr;
    QSpinBox* m_ep = nullptr;
    QComboBox* m_dispatcher = nullptr;  ///< MoeDispatcher
    QSpinBox* m_nvlinkDomain = nullptr; ///< ParallelConfig::nvlinkDomain
    QCheckBox* m_sp = nullptr;
    QComboBox* m_schedule = nullptr;
    QSpinBox* m_virtualStages = nullptr;
    QSpinBox* m_microbatch = nullptr;
    QSpinBox* m_globalBatch = nullptr;
    QComboBox* m_zero = nullptr;
    QComboBox* m_recompute = nullptr;
    QComboBox* m_dtype = nullptr;
    QComboBox* m_phase = nullptr;
    QCheckBox* m_flash = nullptr;
    QCheckBox* m_fusedLoss = nullptr;
    QCheckBox* m_eager = nullptr;
    QCheckBox* m_bf16Grads = nullptr; ///< !ParallelConfig::gradReduceFp32
    QCheckBox* m_tpOverlap = nullptr;
    QCheckBox* m_reshard = nullptr;       ///< ZeRO-3 only
    QCheckBox* m_fsdpCopyOut = nullptr;   ///< ZeRO-3 only
    QSpinBox* m_hsdpShard = nullptr;      ///< ZeRO-3 only; 0: all of DP
    QCheckBox* m_overlapGrad = nullptr;   ///< ZeRO 0-2 only
    QCheckBox* m_overlapGather = nullptr; ///< ZeRO 1-2 only
    QLabel* m_problems = nullptr;
    QLabel* m_figures = nullptr;
    QTimer* m_debounce = nullptr;
    QWidget* m_openFile = nullptr;
    bool m_updating = false;
    bool m_active = true;
};

} // namespace flint::views
