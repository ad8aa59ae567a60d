// SPDX-License-Identifier: MIT
#include "views/parallelismpanel.h"

#include "views/viewpalette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

namespace flint::views {
namespace {

QSpinBox* degree(QWidget* parent, int maximum, const QString& tip)
{
    auto* spin = new QSpinBox(parent);
    spin->setRange(1, maximum);
    spin->setToolTip(tip);
    spin->setKeyboardTracking(false); // "16" is one edit, not PP 1 then PP 16
    return spin;
}

/// The dtype box's item data: the precision in the low byte, an FP8 recipe's scaling above it.
int dtypeKey(core::Precision precision, core::model::Fp8Scaling scaling)
{
    return static_cast<int>(precision) | static_cast<int>(scaling) << 8;
}

} // namespace

namespace {

/// Scrolls the form vertically only: as wide as the form needs (with room for the scroll bar), that
/// width following the form as its texts change (the GPU count, a translation).
class FormScrollArea : public QScrollArea {
public:
    using QScrollArea::QScrollArea;

    QSize minimumSizeHint() const override
    {
        const int inner = widget() ? widget()->minimumSizeHint().width() : 0;
        return {inner + verticalScrollBar()->sizeHint().width() + 2 * frameWidth(),
                QScrollArea::minimumSizeHint().height()};
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == widget() && event->type() == QEvent::LayoutRequest)
            updateGeometry();
        return QScrollArea::eventFilter(watched, event);
    }
};

} // namespace

ParallelismPanel::ParallelismPanel(QWidget* parent)
    : QWidget(parent)
{
    using namespace core::model;
    auto* layout = new QVBoxLayout(this);
    auto* modelRow = new QHBoxLayout;
    m_model = new QComboBox(this);
    m_model->setObjectName(QStringLiteral("model"));
    m_model->setToolTip(tr("A built-in model with its published hyperparameters (docs/models.md)"));
    for (const TransformerConfig& m : builtinModels()) {
        m_models.push_back(m);
        m_model->addItem(QString::fromStdString(m.title));
    }
    auto* openFile = new QPushButton(tr("File…"), this);
    m_openFile = openFile;
    openFile->setToolTip(tr("Read a model from a 'key = value' file"));
    modelRow->addWidget(m_model, 1);
    modelRow->addWidget(openFile);
    layout->addLayout(modelRow);

    auto* form = new QFormLayout;
    m_form = form;
    m_ranks = new QLabel(this);
    m_tp = degree(this, 1024, tr("Tensor parallelism: Megatron column/row-parallel matmuls"));
    m_pp = degree(this, 1024, tr("Pipeline stages"));
    m_dp = degree(this, 65536, tr("Data-parallel replicas"));
    m_cp = degree(this, 1024, tr("Context parallelism: the sequence split over ranks (ring attention)"));
    m_ep = degree(this, 1024, tr("Expert parallelism (mixture-of-experts models); divides DP"));
    m_dispatcher = new QComboBox(this);
    m_dispatcher->setObjectName(QStringLiteral("moeDispatcher"));
    m_dispatcher->addItem(tr("all-to-all"), static_cast<int>(MoeDispatcher::AllToAll));
    m_dispatcher->addItem(QStringLiteral("HybridEP"), static_cast<int>(MoeDispatcher::HybridEp));
    m_dispatcher->setToolTip(tr("How routed tokens reach their experts (EP > 1): all-to-all sends a copy per "
                                "chosen expert (Megatron-LM's alltoall dispatcher); HybridEP sends a token once "
                                "per node over the network and once per GPU over NVLink (Megatron-Core's flex "
                                "dispatcher with HybridEP or DeepEP)"));
    m_nvlinkDomain = degree(this, 1024, tr("HybridEP: ranks per NVLink domain (8 on a DGX or HGX node, 72 on NVL72)"));
    m_nvlinkDomain->setObjectName(QStringLiteral("nvlinkDomain"));
    m_sp = new QCheckBox(tr("Sequence parallelism"), this);
    // Choice values in the user's language; each item's data is the enum value.
    m_schedule = new QComboBox(this);
    m_schedule->setObjectName(QStringLiteral("schedule"));
    m_schedule->addItem(QStringLiteral("GPipe"), static_cast<int>(PipelineSchedule::GPipe));
    m_schedule->addItem(QStringLiteral("1F1B"), static_cast<int>(PipelineSchedule::OneFOneB));
    m_schedule->addItem(tr("interleaved 1F1B"), static_cast<int>(PipelineSchedule::Interleaved));
    m_virtualStages = degree(this, 64, tr("Model chunks per pipeline rank (interleaved schedule)"));
    m_microbatch = degree(this, 4096, tr("Sequences per microbatch"));
    m_globalBatch = degree(this, 1 << 24, tr("Sequences per step"));
    m_zero = new QComboBox(this);
    m_zero->setObjectName(QStringLiteral("zero"));
    m_zero->addItem(tr("none", "ZeRO stage"), static_cast<int>(ZeroStage::None));
    m_zero->addItem(QStringLiteral("ZeRO-1"), static_cast<int>(ZeroStage::OptimizerState));
    m_zero->addItem(QStringLiteral("ZeRO-2"), static_cast<int>(ZeroStage::Gradients));
    m_zero->addItem(QStringLiteral("ZeRO-3 (FSDP)"), static_cast<int>(ZeroStage::Parameters));
    m_recompute = new QComboBox(this);
    m_recompute->addItem(tr("none", "recomputation"), static_cast<int>(Recompute::None));
    m_recompute->addItem(tr("selective", "recomputation"), static_cast<int>(Recompute::Selective));
    m_recompute->addItem(tr("full", "recomputation"), static_cast<int>(Recompute::Full));
    m_dtype = new QComboBox(this);
    m_dtype->setObjectName(QStringLiteral("dtype"));
    m_dtype->setToolTip(tr("The matmuls' precision. FP8 as Transformer Engine runs it: weights cast once a step, "
                           "activations and gradients cast once each; current scaling reads each tensor once more "
                           "for its amax (docs/models.md)"));
    // The matmul precision and, for FP8, the recipe's scaling (ParallelConfig::fp8Scaling).
    m_dtype->addItem(QStringLiteral("bf16"), dtypeKey(core::Precision::BF16, Fp8Scaling::Delayed));
    m_dtype->addItem(tr("fp8, delayed scaling"), dtypeKey(core::Precision::FP8, Fp8Scaling::Delayed));
    m_dtype->addItem(tr("fp8, current scaling"), dtypeKey(core::Precision::FP8, Fp8Scaling::Current));
    m_phase = new QComboBox(this);
    m_phase->addItem(tr("training"), static_cast<int>(Phase::Training));
    m_phase->addItem(tr("prefill"), static_cast<int>(Phase::Prefill));
    m_phase->addItem(tr("decode"), static_cast<int>(Phase::Decode));
    m_flash = new QCheckBox(tr("Flash attention"), this);
    m_fusedLoss = new QCheckBox(tr("Fused cross entropy"), this);
    m_fusedLoss->setObjectName(QStringLiteral("fusedCrossEntropy"));
    m_fusedLoss->setToolTip(tr("The loss as one fused kernel pass over the logits (Transformer Engine's, "
                               "Megatron-Bridge's and llm-foundry's default); off, a kernel per step in fp32 as "
                               "Megatron-LM and PyTorch's cross_entropy run it"));
    m_eager = new QCheckBox(tr("Eager PyTorch kernels"), this);
    m_eager->setObjectName(QStringLiteral("eagerKernels"));
    m_eager->setToolTip(tr("RMSNorm and the rotary embedding as uncompiled PyTorch runs them, a kernel per "
                           "tensor operation in fp32 (torchtitan, IBM fms); off, one fused kernel each"));
    m_tpOverlap = new QCheckBox(tr("TP overlap"), this);
    m_tpOverlap->setObjectName(QStringLiteral("tpCommOverlap"));
    m_tpOverlap->setToolTip(tr("Megatron-LM's --tp-comm-overlap: tensor-parallel all-gathers and reduce-scatters "
                               "pipelined with the GEMMs they feed or follow (training, TP > 1)"));
    m_reshard = new QCheckBox(tr("Reshard after forward"), this);
    m_reshard->setObjectName(QStringLiteral("reshardAfterForward"));
    m_hsdpShard = degree(this, 65536,
                         tr("ZeRO-3 hybrid sharding (HSDP): shard over groups of this many data-parallel ranks and "
                            "replicate across the groups"));
    m_hsdpShard->setRange(0, 65536);
    m_hsdpShard->setSpecialValueText(tr("all of DP"));
    m_hsdpShard->setObjectName(QStringLiteral("hsdpShard"));
    m_reshard->setToolTip(tr("ZeRO-3 (FSDP): free each layer's gathered parameters after its forward pass and "
                             "gather them again for its backward pass"));
    m_fsdpCopyOut = new QCheckBox(tr("FSDP2 copy-out"), this);
    m_fsdpCopyOut->setObjectName(QStringLiteral("fsdpCopyOut"));
    m_fsdpCopyOut->setToolTip(tr("ZeRO-3 as PyTorch FSDP2 (fully_shard, torchtitan) runs it: after every all-gather, a "
                                 "copy on the compute stream splits the gathered buffer into the layer's parameters; "
                                 "off, as FSDP1 and DeepSpeed, the layers compute on the gathered buffer"));
    m_overlapGrad = new QCheckBox(tr("Overlap gradient reduction"), this);
    m_overlapGrad->setObjectName(QStringLiteral("overlapGradReduce"));
    m_overlapGrad->setToolTip(tr("ZeRO 0-2: reduce each layer's gradients once its last backward pass has "
                                 "produced them, behind the rest of the backward pass (PyTorch DDP, Megatron-LM's "
                                 "--overlap-grad-reduce); off, after the whole backward pass"));
    m_overlapGather = new QCheckBox(tr("Overlap parameter gather"), this);
    m_overlapGather->setObjectName(QStringLiteral("overlapParamGather"));
    m_overlapGather->setToolTip(tr("ZeRO 1-2: gather the updated weights layer by layer during the forward pass "
                                   "(Megatron-Core's --overlap-param-gather); off, after the optimizer"));
    m_bf16Grads = new QCheckBox(tr("Reduce gradients in bf16"), this);
    m_bf16Grads->setObjectName(QStringLiteral("bf16GradReduce"));
    m_bf16Grads->setToolTip(tr("Accumulate and reduce data-parallel gradients in bf16 (Megatron-Bridge's "
                               "performance recipes); off, in fp32 as Megatron-LM does by default"));
    m_tp->setObjectName(QStringLiteral("tp"));
    m_pp->setObjectName(QStringLiteral("pp"));
    m_dp->setObjectName(QStringLiteral("dp"));
    m_cp->setObjectName(QStringLiteral("cp"));
    m_ep->setObjectName(QStringLiteral("ep"));
    m_microbatch->setObjectName(QStringLiteral("microbatch"));
    m_virtualStages->setObjectName(QStringLiteral("virtualStages"));
    m_globalBatch->setObjectName(QStringLiteral("globalBatch"));
    form->addRow(tr("GPUs"), m_ranks);
    form->addRow(tr("TP"), m_tp);
    form->addRow(tr("PP"), m_pp);
    form->addRow(tr("DP"), m_dp);
    form->addRow(tr("CP"), m_cp);
    form->addRow(tr("EP"), m_ep);
    // One row: the dispatcher and, for HybridEP, the ranks of an NVLink domain.
    auto* dispatch = new QHBoxLayout;
    dispatch->addWidget(m_dispatcher, 1);
    dispatch->addWidget(m_nvlinkDomain);
    form->addRow(tr("Dispatch"), dispatch);
    form->addRow(QString(), m_sp);
    form->addRow(QString(), m_tpOverlap);
    form->addRow(tr("Schedule"), m_schedule);
    form->addRow(tr("Virtual stages"), m_virtualStages);
    form->addRow(tr("Microbatch"), m_microbatch);
    form->addRow(tr("Global batch"), m_globalBatch);
    form->addRow(tr("ZeRO"), m_zero);
    form->addRow(QString(), m_reshard);
    form->addRow(QString(), m_fsdpCopyOut);
    form->addRow(tr("Shard group"), m_hsdpShard);
    form->addRow(QString(), m_overlapGrad);
    form->addRow(QString(), m_overlapGather);
    form->addRow(QString(), m_bf16Grads);
    form->addRow(tr("Recompute"), m_recompute);
    form->addRow(tr("Matmul dtype"), m_dtype);
    form->addRow(tr("Phase"), m_phase);
    form->addRow(QString(), m_flash);
    form->addRow(QString(), m_fusedLoss);
    form->addRow(QString(), m_eager);
    // The form scrolls where the screen is lower than it (1,280 x 800), the figures below it stay in
    // view: without the scroll area the window's minimum height exceeded such a screen.
    auto* formBox = new QWidget;
    auto* formBoxLayout = new QVBoxLayout(formBox);
    formBoxLayout->setContentsMargins(0, 0, 0, 0);
    formBoxLayout->addLayout(form);
    formBoxLayout->addStretch(1);
    auto* scroll = new FormScrollArea(this);
    scroll->setWidget(formBox);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll, 1);

    m_problems = new QLabel(this);
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::RichText);
    m_figures = new QLabel(this);
    m_figures->setWordWrap(true);
    m_figures->setTextFormat(Qt::RichText);
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_problems);
    layout->addWidget(m_figures);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, &ParallelismPanel::check);
    connect(openFile, &QPushButton::clicked, this, &ParallelismPanel::openModelFileRequested);
    for (QSpinBox* spin :
         {m_tp, m_pp, m_dp, m_cp, m_ep, m_nvlinkDomain, m_virtualStages, m_microbatch, m_globalBatch, m_hsdpShard})
        connect(spin, &QSpinBox::valueChanged, this, &ParallelismPanel::edited);
    for (QComboBox* combo : {m_schedule, m_zero, m_recompute, m_dtype, m_phase, m_dispatcher})
        connect(combo, &QComboBox::currentIndexChanged, this, &ParallelismPanel::edited);
    connect(m_model, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_active || m_updating || index < 0) {
            edited();
            return;
        }
        // Chosen while a file is open: the model in the layout it opens with (GPT-3 175B's published
        // 1,024 GPUs where the model allows it, else one node), at once.
        const TransformerConfig& chosen = m_models.at(static_cast<std::size_t>(index));
        setStrategy(chosen, core::model::defaultStrategy(chosen));
        check();
    });
    for (QCheckBox* box : {m_sp, m_flash, m_fusedLoss, m_eager, m_reshard, m_fsdpCopyOut, m_tpOverlap, m_overlapGrad,
                           m_overlapGather, m_bf16Grads})
        connect(box, &QCheckBox::toggled, this, &ParallelismPanel::edited);
    // Interleaving needs two chunks at least: choosing it with one asks for the least that interleaves.
    connect(m_schedule, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating && m_virtualStages->value() == 1 &&
            m_schedule->currentData().toInt() == static_cast<int>(PipelineSchedule::Interleaved))
            m_virtualStages->setValue(2);
    });
    connect(m_zero, &QComboBox::currentIndexChanged, this, &ParallelismPanel::enableDependentControls);
    connect(m_ep, &QSpinBox::valueChanged, this, &ParallelismPanel::enableDependentControls);
    connect(m_tp, &QSpinBox::valueChanged, this, &ParallelismPanel::enableDependentControls);
    connect(m_dispatcher, &QComboBox::currentIndexChanged, this, &ParallelismPanel::enableDependentControls);
    setStrategy(m_models.front(), ParallelConfig{});
}

void ParallelismPanel::setStrategy(const core::model::TransformerConfig& model,
                                   const core::model::ParallelConfig& parallel)
{
    m_updating = true;
    int index = -1;
    for (std::size_t i = 0; i < m_models.size(); ++i)
        if (m_models[i].name == model.name && m_models[i].title == model.title)
            index = static_cast<int>(i);
    if (index < 0) {
        m_models.push_back(model);
        m_model->addItem(QString::fromStdString(model.title));
        index = static_cast<int>(m_models.size()) - 1;
    }
    m_model->setCurrentIndex(index);
    m_tp->setValue(static_cast<int>(parallel.tp));
    m_pp->setValue(static_cast<int>(parallel.pp));
    m_dp->setValue(static_cast<int>(parallel.dp));
    m_cp->setValue(static_cast<int>(parallel.cp));
    m_ep->setValue(static_cast<int>(parallel.ep));
    m_dispatcher->setCurrentIndex(m_dispatcher->findData(static_cast<int>(parallel.moeDispatcher)));
    m_nvlinkDomain->setValue(static_cast<int>(parallel.nvlinkDomain));
    m_sp->setChecked(parallel.sequenceParallel);
    m_schedule->setCurrentIndex(m_schedule->findData(static_cast<int>(parallel.schedule)));
    m_virtualStages->setValue(static_cast<int>(parallel.virtualStages));
    m_microbatch->setValue(static_cast<int>(parallel.microbatchSize));
    m_globalBatch->setValue(static_cast<int>(parallel.effectiveGlobalBatch()));
    m_zero->setCurrentIndex(m_zero->findData(static_cast<int>(parallel.zero)));
    m_recompute->setCurrentIndex(m_recompute->findData(static_cast<int>(parallel.recompute)));
    m_dtype->setCurrentIndex(
        std::max(0, m_dtype->findData(dtypeKey(parallel.dtype, parallel.dtype == core::Precision::FP8
                                                                   ? parallel.fp8Scaling
                                                                   : core::model::Fp8Scaling::Delayed))));
    m_phase->setCurrentIndex(m_phase->findData(static_cast<int>(parallel.phase)));
    m_flash->setChecked(parallel.flashAttention);
    m_fusedLoss->setChecked(parallel.fusedCrossEntropy);
    m_eager->setChecked(parallel.eagerKernels);
    m_tpOverlap->setChecked(parallel.tpCommOverlap);
    m_reshard->setChecked(parallel.reshardAfterForward);
    m_fsdpCopyOut->setChecked(parallel.fsdpCopyOut);
    m_hsdpShard->setValue(static_cast<int>(parallel.hsdpShard));
    m_overlapGrad->setChecked(parallel.overlapGradReduce);
    m_overlapGather->setChecked(parallel.overlapParamGather);
    m_bf16Grads->setChecked(!parallel.gradReduceFp32);
    enableDependentControls();
    m_updating = false;
    updateRanks();
    m_problems->clear();
}

void ParallelismPanel::addModel(const core::model::TransformerConfig& model)
{
    m_models.push_back(model);
    m_model->addItem(QString::fromStdString(model.title));
    m_model->setCurrentIndex(m_model->count() - 1);
}

core::model::TransformerConfig ParallelismPanel::model() const
{
    return m_models.at(static_cast<std::size_t>(std::max(0, m_model->currentIndex())));
}

core::model::ParallelConfig ParallelismPanel::parallel() const
{
    using namespace core::model;
    ParallelConfig p;
    p.tp = m_tp->value();
    p.pp = m_pp->value();
    p.dp = m_dp->value();
    p.cp = m_cp->value();
    p.ep = m_ep->value();
    p.moeDispatcher = static_cast<MoeDispatcher>(m_dispatcher->currentData().toInt());
    p.nvlinkDomain = m_nvlinkDomain->value();
    p.sequenceParallel = m_sp->isChecked();
    p.schedule = static_cast<PipelineSchedule>(m_schedule->currentData().toInt());
    p.virtualStages = p.schedule == PipelineSchedule::Interleaved ? m_virtualStages->value() : 1;
    p.microbatchSize = m_microbatch->value();
    p.globalBatch = m_globalBatch->value();
    p.zero = static_cast<ZeroStage>(m_zero->currentData().toInt());
    p.recompute = static_cast<Recompute>(m_recompute->currentData().toInt());
    p.dtype = static_cast<core::Precision>(m_dtype->currentData().toInt() & 0xff);
    p.fp8Scaling = static_cast<Fp8Scaling>(m_dtype->currentData().toInt() >> 8);
    p.phase = static_cast<Phase>(m_phase->currentData().toInt());
    p.flashAttention = m_flash->isChecked();
    p.fusedCrossEntropy = m_fusedLoss->isChecked();
    p.eagerKernels = m_eager->isChecked();
    p.tpCommOverlap = m_tpOverlap->isChecked();
    p.reshardAfterForward = m_reshard->isChecked();
    p.fsdpCopyOut = m_fsdpCopyOut->isChecked();
    p.hsdpShard = p.zero == ZeroStage::Parameters ? m_hsdpShard->value() : 0;
    p.overlapGradReduce = m_overlapGrad->isChecked();
    p.overlapParamGather = m_overlapGather->isChecked();
    p.gradReduceFp32 = !m_bf16Grads->isChecked();
    return p;
}

void ParallelismPanel::enableDependentControls()
{
    using core::model::ZeroStage;
    const auto zero = static_cast<ZeroStage>(m_zero->currentData().toInt());
    m_reshard->setEnabled(zero == ZeroStage::Parameters);
    m_fsdpCopyOut->setEnabled(zero == ZeroStage::Parameters);
    m_hsdpShard->setEnabled(zero == ZeroStage::Parameters);
    m_overlapGrad->setEnabled(zero != ZeroStage::Parameters);
    m_overlapGather->setEnabled(zero == ZeroStage::OptimizerState || zero == ZeroStage::Gradients);
    // The token dispatcher matters with expert parallelism only, the NVLink domain to HybridEP only.
    // Sequence parallelism and TP overlap split the tensor-parallel group's work: nothing to split at TP 1.
    m_sp->setEnabled(m_tp->value() > 1);
    m_tpOverlap->setEnabled(m_tp->value() > 1);
    const bool experts = m_ep->value() > 1;
    m_dispatcher->setEnabled(experts);
    m_nvlinkDomain->setEnabled(experts && m_dispatcher->currentData().toInt() ==
                                              static_cast<int>(core::model::MoeDispatcher::HybridEp));
}

QString ParallelismPanel::problems() const
{
    return m_problems->text();
}

void ParallelismPanel::setFigures(const QString& html)
{
    m_figures->setText(html);
    setFiguresStale(false);
}

void ParallelismPanel::setFiguresStale(bool stale)
{
    // An open file shows why its parallelism is fixed there, not figures: nothing to grey out.
    stale = stale && m_active;
    showStale(m_figures, stale, tr("The figures of the previous strategy: the current one is not estimated yet"));
}

bool ParallelismPanel::figuresStale() const
{
    return !m_figures->isEnabled();
}

QString ParallelismPanel::figures() const
{
    return m_figures->text();
}

void ParallelismPanel::setActive(bool active, const QString& why)
{
    m_active = active;
    // The model box stays usable, its list too (a descendant once shown, in a popup window of its
    // own, so QWidget::isAncestorOf does not see it), and so does the button that reads a model file.
    const auto insideModelBox = [this](const QWidget* widget) {
        for (; widget != nullptr; widget = widget->parentWidget())
            if (widget == m_model)
                return true;
        return false;
    };
    for (QWidget* child : findChildren<QWidget*>())
        if (child != m_figures && child != m_problems && !insideModelBox(child) && child != m_openFile)
            child->setEnabled(active);
    // Without a built-in model the strategy's rows would show a default (1 GPU, global batch 4) as
    // if it were the open workload's: they are hidden until a model is chosen.
    for (int row = 0; row < m_form->rowCount(); ++row)
        m_form->setRowVisible(row, active);
    if (active) {
        enableDependentControls();
        updateRanks();
        return;
    }
    m_debounce->stop();
    m_updating = true;
    m_model->setPlaceholderText(tr("Choose a built-in model…"));
    m_model->setCurrentIndex(-1);
    m_updating = false;
    m_problems->clear();
    m_figures->setText(why);
    setFiguresStale(false);
}

void ParallelismPanel::updateRanks()
{
    const core::model::ParallelConfig p = parallel();
    m_ranks->setText(tr("%1 (TP x CP x PP x DP)").arg(QLocale().toString(static_cast<qlonglong>(p.ranks()))));
    m_virtualStages->setEnabled(p.schedule == core::model::PipelineSchedule::Interleaved);
}

void ParallelismPanel::edited()
{
    if (m_updating)
        return;
    updateRanks();
    m_debounce->start();
}

void ParallelismPanel::check()
{
    const auto model = this->model();
    const auto parallel = this->parallel();
    const auto problems = core::model::validateStrategy(model, parallel);
    if (!problems.empty()) {
        QString text = QStringLiteral("<span style='color:#c0392b'>");
        for (const auto& p : problems)
            text += tr("<b>%1</b>; try %2<br>")
                        .arg(QString::fromStdString(p.message).toHtmlEscaped(),
                             QString::fromStdString(p.suggestion).toHtmlEscaped());
        if (!m_figures->text().isEmpty())
            text += tr("The figures below are those of the last valid strategy.");
        m_problems->setText(text + QStringLiteral("</span>"));
        setFiguresStale(true);
        return;
    }
    m_problems->clear();
    Q_EMIT strategyChanged(model, parallel);
}

} // namespace flint::views
