import { Alert, Form, InputNumber, Progress, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BUDGET_DURATIONS, budgetPercent, formatUsd, headroomUsd } from '../limits';
import type { SpendEntry } from '../spend';

const WHOLE = { precision: 0, style: { width: 200 } } as const;

/**
 * The five limits fields of a team or an AccessKey, under `limits.*` in the form. An empty field is
 * unlimited; the bounds are route-core's (Limits), so a value the API would refuse is caught here.
 */
export function LimitsFields({ idPrefix, help }: { idPrefix: string; help?: string }) {
  const { t } = useTranslation();
  const placeholder = t('limits.unlimited');
  return (
    <fieldset data-testid={`${idPrefix}-limits`} style={{ border: '1px solid #f0f0f0', borderRadius: 4, padding: '8px 12px 0', marginBottom: 16 }}>
      <legend style={{ fontSize: 14, width: 'auto', marginBottom: 0, padding: '0 4px', border: 0 }}>
        {t('limits.title')} <Typography.Text type="secondary">({t('limits.emptyUnlimited')})</Typography.Text>
      </legend>
      {help && <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>{help}</Typography.Paragraph>}
      <Space size="middle" wrap align="start">
        <Form.Item name={['limits', 'rpm_limit']} label={t('limits.rpm_limit')}>
          <InputNumber id={`${idPrefix}-rpm_limit`} min={1} max={10_000_000} placeholder={placeholder} {...WHOLE} />
        </Form.Item>
        <Form.Item name={['limits', 'tpm_limit']} label={t('limits.tpm_limit')}>
          <InputNumber id={`${idPrefix}-tpm_limit`} min={1} max={1_000_000_000_000} placeholder={placeholder} {...WHOLE} />
        </Form.Item>
        <Form.Item name={['limits', 'max_parallel_requests']} label={t('limits.max_parallel_requests')}>
          <InputNumber id={`${idPrefix}-max_parallel_requests`} min={1} max={100_000} placeholder={placeholder} {...WHOLE} />
        </Form.Item>
      </Space>
      <Space size="middle" wrap align="start">
        <Form.Item
          name={['limits', 'max_budget']}
          label={t('limits.max_budget')}
          rules={[
            {
              validator: (_, value) =>
                value === null || value === undefined || /^\d+(\.\d{1,6})?$/.test(String(value))
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('limits.budgetDecimals'))),
            },
          ]}
        >
          <InputNumber id={`${idPrefix}-max_budget`} min={0} max={1_000_000_000} step={1} prefix="$" placeholder={placeholder} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item
          name={['limits', 'budget_duration']}
          label={t('limits.budget_duration')}
          dependencies={[['limits', 'max_budget']]}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                value && (getFieldValue(['limits', 'max_budget']) ?? null) === null
                  ? Promise.reject(new Error(t('limits.durationNeedsBudget')))
                  : Promise.resolve(),
            }),
          ]}
        >
          <Select
            id={`${idPrefix}-budget_duration`}
            allowClear
            placeholder={t('limits.lifetimeOption')}
            style={{ width: 200 }}
            options={BUDGET_DURATIONS.map((d) => ({ value: d, label: `${d} · ${t(`limits.durations.${d}`)}` }))}
          />
        </Form.Item>
      </Space>
    </fieldset>
  );
}

/** A credential's own limits (rpm_limit, max_parallel_requests) under `limits.*`. */
export function CredentialLimitsFields() {
  const { t } = useTranslation();
  const placeholder = t('limits.unlimited');
  return (
    <fieldset data-testid="credential-limits" style={{ border: '1px solid #f0f0f0', borderRadius: 4, padding: '8px 12px 0', marginBottom: 16 }}>
      <legend style={{ fontSize: 14, width: 'auto', marginBottom: 0, padding: '0 4px', border: 0 }}>
        {t('limits.credentialTitle')} <Typography.Text type="secondary">({t('limits.emptyUnlimited')})</Typography.Text>
      </legend>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('limits.credentialHelp')}
      </Typography.Paragraph>
      <Space size="middle" wrap align="start">
        <Form.Item htmlFor="credential-rpm_limit" name={['limits', 'rpm_limit']} label={t('limits.rpm_limit')}>
          <InputNumber id="credential-rpm_limit" min={1} max={10_000_000} placeholder={placeholder} {...WHOLE} />
        </Form.Item>
        <Form.Item htmlFor="credential-max_parallel_requests" name={['limits', 'max_parallel_requests']} label={t('limits.max_parallel_requests')}>
          <InputNumber id="credential-max_parallel_requests" min={1} max={100_000} placeholder={placeholder} {...WHOLE} />
        </Form.Item>
      </Space>
    </fieldset>
  );
}

/**
 * Spend in the current window against the budget: `$1.20 / $5.00`, a bar (red once spent), the
 * reset time and what is left. Without a budget, the spend alone (the calendar month).
 */
export function SpendCell({ entry, compact = false }: { entry: SpendEntry | undefined; compact?: boolean }) {
  const { t } = useTranslation();
  if (!entry) return <Typography.Text type="secondary">…</Typography.Text>;
  if (!entry.value) return <Typography.Text type="secondary">—</Typography.Text>;
  const spend = entry.value;
  const percent = budgetPercent(spend.spend_usd, spend.max_budget);
  return (
    <div data-testid="spend-cell" style={{ minWidth: compact ? 120 : 180 }}>
      <span data-testid="spend-text">
        {formatUsd(spend.spend_usd)}
        {spend.max_budget !== null && ` / ${formatUsd(spend.max_budget)}`}
      </span>
      {percent !== null && (
        <Progress
          percent={Number(percent.toFixed(1))}
          size="small"
          status={percent >= 100 ? 'exception' : 'normal'}
          showInfo={!compact}
          data-testid="spend-progress"
        />
      )}
      {!compact && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="spend-reset">
          {spend.max_budget === null
            ? t('team.noBudget')
            : spend.budget_reset_at
              ? t('team.resetsAt', { time: new Date(spend.budget_reset_at).toLocaleString() })
              : t('team.lifetime')}
        </Typography.Text>
      )}
    </div>
  );
}

/** What may still be spent in this window, or unlimited. */
export function HeadroomCell({ entry }: { entry: SpendEntry | undefined }) {
  const { t } = useTranslation();
  if (!entry?.value) return <Typography.Text type="secondary">{entry ? '—' : '…'}</Typography.Text>;
  const left = headroomUsd(entry.value.spend_usd, entry.value.max_budget);
  if (left === null) return <span data-testid="headroom">{t('limits.unlimited')}</span>;
  return (
    <Typography.Text type={left <= 0 ? 'danger' : undefined} data-testid="headroom">
      {formatUsd(left)}
    </Typography.Text>
  );
}

/** A refusal or error above a form or list, as text. */
export function ErrorLine({ text, testId }: { text: string | null; testId?: string }) {
  return text ? <Alert type="error" showIcon message={text} style={{ marginBottom: 12 }} data-testid={testId} /> : null;
}
