import { useState } from 'react';
import { Alert, Button, Card, Collapse, Descriptions, Form, Input, Progress, Select, Space, Steps, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, api, type AccessKeyView, type AdmissionCheck, type RouteCheckView, type RouteCheckWithAdmission } from '../api/client';
import { budgetPercent, formatUsd, limitsSummary } from '../limits';
import { usePolling } from '../hooks';
import { allReasonCodes, isLimitCode, reasonCode } from '../reasonCodes';
import { PROTOCOLS } from './AccessKeys';

type Trace = NonNullable<RouteCheckView['trace']>;
type GroupTrace = Trace['groups'][number];

const VERDICT_COLOR: Record<string, string> = {
  SELECTED: 'green',
  ELIGIBLE: 'blue',
  COOLING: 'orange',
  DROPPED: 'red',
  NOT_EVALUATED: 'default',
};

/** A reason code as a tag; its meaning (in the console's language) on hover. credential_full is a skip, not a failure. */
export function ReasonTag({ code }: { code?: string | null }) {
  const { t, i18n } = useTranslation();
  if (!code) return null;
  const known = reasonCode(code, i18n.language);
  const tag = (
    <Tag color={code === 'credential_full' ? 'gold' : 'red'} data-testid="trace-reason">
      {code}
    </Tag>
  );
  return (
    <>
      {known ? <Tooltip title={known.meaning}>{tag}</Tooltip> : tag}
      {code === 'credential_full' && (
        <Typography.Text type="secondary" data-testid="trace-limit-skipped">
          {t('routeCheck.limitSkipped')}
        </Typography.Text>
      )}
    </>
  );
}

/** The meaning and how-to of a route check's code: the console's own text for the limit codes, else the server's (the spec's). */
export function explainCode(result: { reason_code?: string | null; meaning?: string | null; how_to_handle?: string | null }, language: string) {
  const known = reasonCode(result.reason_code, language);
  if (isLimitCode(result.reason_code)) return { meaning: known?.meaning, howToHandle: known?.howToHandle };
  return { meaning: result.meaning ?? known?.meaning, howToHandle: result.how_to_handle ?? known?.howToHandle };
}

/** route-core's step ids of a credential's filters, in order (there is no step 4 in a credential's trace). */
export const CREDENTIAL_STEPS = [1, 2, 3, 5, 6] as const;

/** The 0-based position of a route-core step among the five shown. */
export function stepPosition(step: number | null | undefined): number {
  return Math.max(0, CREDENTIAL_STEPS.indexOf((step ?? 1) as (typeof CREDENTIAL_STEPS)[number]));
}

/** A group outside the key's scope: dropped with group_filtered and no detail, never a failover candidate. */
export function outsideScope(group: { reason?: string | null; failover_position?: number | null }): boolean {
  return group.reason === 'group_filtered' && (group.failover_position ?? -1) < 0;
}

function GroupSteps({ group }: { group: GroupTrace }) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      style={{ marginBottom: 12 }}
      title={
        <Space>
          <Tag color={VERDICT_COLOR[group.verdict]} data-testid="trace-group-verdict">
            {t(`routeCheck.verdict.${group.verdict}`, { defaultValue: group.verdict })}
          </Tag>
          {group.group_name ?? group.group_id}
          <Typography.Text type="secondary">{t('routeCheck.failover', { n: group.failover_position })}</Typography.Text>
          <ReasonTag code={group.reason} />
        </Space>
      }
      data-testid="trace-group"
    >
      {group.detail && <Typography.Paragraph type="secondary">{group.detail}</Typography.Paragraph>}
      {(group.credentials ?? []).map((credential) => (
        <div key={credential.credential_id} style={{ marginBottom: 12 }} data-testid="trace-credential">
          <Space wrap>
            <Typography.Text strong>{credential.credential_name ?? credential.credential_id}</Typography.Text>
            <Tag color={VERDICT_COLOR[credential.verdict]} data-testid="trace-credential-verdict">
              {t(`routeCheck.verdict.${credential.verdict}`, { defaultValue: credential.verdict })}
            </Tag>
            <ReasonTag code={credential.reason} />
            {credential.model_key && <Typography.Text code>{credential.model_key}</Typography.Text>}
            {credential.recovery_at && (
              <Typography.Text type="secondary">
                {t('routeCheck.recoveryAt')}: {new Date(credential.recovery_at).toLocaleString()}
              </Typography.Text>
            )}
          </Space>
          <Steps
            size="small"
            style={{ marginTop: 6 }}
            current={stepPosition(credential.step)}
            status={credential.verdict === 'DROPPED' ? 'error' : credential.verdict === 'NOT_EVALUATED' ? 'wait' : 'finish'}
            // the five filters of a credential, numbered 1-5 by their position (the icon shows the number)
            items={CREDENTIAL_STEPS.map((step) => ({ title: t(`routeCheck.steps.${step}`) }))}
          />
          {credential.detail && <Typography.Text type="secondary">{credential.detail}</Typography.Text>}
        </div>
      ))}
    </Card>
  );
}

const ADMISSION_COLOR: Record<string, string> = { not_limited: 'default', admitted: 'green', refused: 'red' };

/** The admission part of a route check: the decision, the key's, team's and effective limits, and each budget against its spend. */
export function AdmissionCard({ admission }: { admission: AdmissionCheck }) {
  const { t } = useTranslation();
  const decision =
    admission.decision === 'not_limited'
      ? t('routeCheck.notLimited')
      : admission.decision === 'refused'
        ? t('routeCheck.admissionRefused')
        : t('routeCheck.admitted');
  return (
    <Card size="small" style={{ marginBottom: 12 }} title={t('routeCheck.admission')} data-testid="route-check-admission">
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('col.result')}>
          <Space wrap>
            <Tag color={ADMISSION_COLOR[admission.decision] ?? 'default'} data-testid="admission-decision">
              {decision}
            </Tag>
            <ReasonTag code={admission.reason_code} />
            {admission.budget_reset_at && (
              <Typography.Text type="secondary">{t('team.resetsAt', { time: new Date(admission.budget_reset_at).toLocaleString() })}</Typography.Text>
            )}
          </Space>
        </Descriptions.Item>
        {admission.team_id && <Descriptions.Item label={t('col.team')}>{admission.team_name ?? admission.team_id}</Descriptions.Item>}
        <Descriptions.Item label={t('routeCheck.keyLimits')}>{limitsSummary(admission.key_limits, t)}</Descriptions.Item>
        {admission.team_id && <Descriptions.Item label={t('routeCheck.teamLimits')}>{limitsSummary(admission.team_limits, t)}</Descriptions.Item>}
        <Descriptions.Item label={t('routeCheck.effectiveLimits')}>
          <span data-testid="admission-effective">
            {limitsSummary(admission.effective_limits && { ...admission.effective_limits, max_budget: null, budget_duration: null }, t)}
          </span>
        </Descriptions.Item>
      </Descriptions>
      {(admission.budgets ?? []).length > 0 && (
        <Table
          style={{ marginTop: 12 }}
          size="small"
          pagination={false}
          rowKey={(b) => `${b.subject}:${b.subject_id}`}
          dataSource={admission.budgets ?? []}
          onRow={(b) => ({ 'data-budget': b.subject }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { title: t('routeCheck.budgets'), render: (_, b) => t(`routeCheck.subjects.${b.subject}`, { defaultValue: b.subject }) },
            {
              title: t('col.spend'),
              render: (_, b) => (
                <div style={{ minWidth: 160 }}>
                  <span data-testid="budget-spend">
                    {formatUsd(b.spend_usd)} / {formatUsd(b.max_budget)}
                  </span>
                  <Progress size="small" percent={Number((budgetPercent(b.spend_usd, b.max_budget) ?? 0).toFixed(1))} status={b.exceeded ? 'exception' : 'normal'} />
                </div>
              ),
            },
            {
              title: t('team.window'),
              render: (_, b) =>
                b.budget_duration ? `${b.budget_duration} · ${t(`limits.durations.${b.budget_duration}`)}` : t('team.lifetime'),
            },
            {
              title: t('col.status'),
              render: (_, b) =>
                b.exceeded ? (
                  <Tag color="red" data-testid="budget-exceeded">
                    {t('routeCheck.exceeded')}
                  </Tag>
                ) : b.budget_reset_at ? (
                  t('team.resetsAt', { time: new Date(b.budget_reset_at).toLocaleString() })
                ) : null,
            },
          ]}
        />
      )}
      {admission.decision !== 'not_limited' && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('routeCheck.liveNote')}
        </Typography.Paragraph>
      )}
    </Card>
  );
}

export function RouteCheckPage() {
  const { t, i18n } = useTranslation();
  const keys = usePolling(() => api<AccessKeyView[]>('GET', '/access-keys'), 0);
  const [form] = Form.useForm();
  const [result, setResult] = useState<RouteCheckWithAdmission | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [showAllGroups, setShowAllGroups] = useState(false);

  const run = async () => {
    const values = await form.validateFields();
    if (!values.access_key?.trim() && !values.access_key_id) {
      setResult(null);
      setError(t('routeCheck.keyRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const body: Record<string, unknown> = { protocol: values.protocol, model: values.model };
      if (values.access_key) body.access_key = values.access_key.trim();
      else body.access_key_id = values.access_key_id;
      if (values.prompt) body.prompt = values.prompt;
      setResult(await api<RouteCheckWithAdmission>('POST', '/route-check', body));
    } catch (e) {
      setResult(null);
      setError(e instanceof ApiError ? `${e.code}: ${e.message}` : String(e));
    } finally {
      setBusy(false);
    }
  };

  const explained = result ? explainCode(result, i18n.language) : undefined;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="large">
      <Typography.Paragraph type="secondary">{t('routeCheck.intro')}</Typography.Paragraph>
      <Form form={form} layout="inline" initialValues={{ protocol: 'openai_chat' }} onFinish={run}>
        <Form.Item htmlFor="route-check-key" name="access_key" label={t('routeCheck.key')}>
          <Input.Password id="route-check-key" style={{ width: 260 }} autoComplete="off" />
        </Form.Item>
        <Form.Item name="access_key_id" label={t('routeCheck.keyId')}>
          <Select allowClear style={{ width: 200 }} options={(keys.data ?? []).map((k) => ({ value: k.id, label: k.name }))} />
        </Form.Item>
        <Form.Item name="protocol" label={t('routeCheck.protocol')}>
          <Select style={{ width: 180 }} options={PROTOCOLS.map((p) => ({ value: p, label: p }))} />
        </Form.Item>
        <Form.Item htmlFor="route-check-model" name="model" label={t('routeCheck.model')}>
          <Input id="route-check-model" style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="prompt" label={t('routeCheck.prompt')}>
          <Input style={{ width: 220 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} id="route-check-run">
          {t('routeCheck.run')}
        </Button>
      </Form>
      {error && <Alert type="error" message={error} data-testid="route-check-error" />}
      {result && (
        <Card data-testid="route-check-result">
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={t('col.result')}>
              <Tag color={result.decision === 'selected' ? 'green' : 'red'} data-testid="route-check-decision">
                {result.decision === 'selected' ? t('routeCheck.selected') : t('routeCheck.refused')}
              </Tag>
              {result.http_status && <Tag>HTTP {result.http_status}</Tag>}
              {result.selected?.from_cooling_fallback && <Tag color="orange">{t('routeCheck.fromCoolingFallback')}</Tag>}
            </Descriptions.Item>
            {result.selected && (
              <Descriptions.Item label={t('col.credential')}>
                {result.selected.group_name} → {result.selected.credential_name} ({result.selected.model_key} → {result.selected.upstream_model})
              </Descriptions.Item>
            )}
            {result.reason_code && (
              <>
                <Descriptions.Item label={t('routeCheck.reasonCode')}>
                  <Typography.Text code data-testid="route-check-reason">
                    {result.reason_code}
                  </Typography.Text>
                </Descriptions.Item>
                <Descriptions.Item label={t('routeCheck.meaning')}>
                  <span data-testid="route-check-meaning">{explained?.meaning}</span>
                </Descriptions.Item>
                <Descriptions.Item label={t('routeCheck.howToHandle')}>
                  <span data-testid="route-check-how">{explained?.howToHandle}</span>
                </Descriptions.Item>
                {result.message && <Descriptions.Item label="message">{result.message}</Descriptions.Item>}
              </>
            )}
            {result.earliest_recovery_at && (
              <Descriptions.Item label={t('routeCheck.recoveryAt')}>{new Date(result.earliest_recovery_at).toLocaleString()}</Descriptions.Item>
            )}
          </Descriptions>
          {result.admission && (
            <div style={{ marginTop: 16 }}>
              <AdmissionCard admission={result.admission} />
            </div>
          )}
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('routeCheck.trace')}
          </Typography.Title>
          <Card size="small" style={{ marginBottom: 12 }}>
            <Space>
              {t('routeCheck.access')}:
              {result.trace?.access_refusal ? <ReasonTag code={result.trace.access_refusal} /> : <Tag color="green">{t('routeCheck.accessOk')}</Tag>}
            </Space>
          </Card>
          {(result.trace?.groups ?? [])
            .filter((group) => showAllGroups || !outsideScope(group))
            .map((group) => (
              <GroupSteps key={group.group_id} group={group} />
            ))}
          {(result.trace?.groups ?? []).some(outsideScope) && (
            <Button type="link" onClick={() => setShowAllGroups((all) => !all)} data-testid="trace-toggle-outside">
              {showAllGroups
                ? t('routeCheck.hideOutside')
                : t('routeCheck.showOutside', { count: (result.trace?.groups ?? []).filter(outsideScope).length })}
            </Button>
          )}
        </Card>
      )}
      <Collapse
        items={[
          {
            key: 'codes',
            label: t('routeCheck.codes'),
            children: (
              <Table
                rowKey="code"
                size="small"
                pagination={false}
                dataSource={allReasonCodes(i18n.language)}
                columns={[
                  { title: t('routeCheck.reasonCode'), dataIndex: 'code' },
                  { title: t('routeCheck.meaning'), dataIndex: 'meaning' },
                  { title: t('routeCheck.howToHandle'), dataIndex: 'howToHandle' },
                ]}
              />
            ),
          },
        ]}
      />
    </Space>
  );
}
