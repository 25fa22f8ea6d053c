import { useState } from 'react';
import { Alert, Button, Checkbox, DatePicker, Descriptions, Drawer, Form, Input, Select, Space, Table, Tag, Timeline, Tooltip, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { api, query, type AccessKeyView, type CredentialView, type GroupView, type Page, type RequestLogView } from '../api/client';
import { usePolling } from '../hooks';
import { LIMIT_REASON_CODES, allReasonCodes, reasonCode } from '../reasonCodes';
import { attemptNumbers, decisionColor, decisionKey, probeParam, type AttemptStep } from '../attempts';
import { ifReadable, mayOffer, readableTeams, useMe } from '../access';

export interface LogFilters {
  range?: [Dayjs | null, Dayjs | null] | null;
  access_key_id?: string;
  team_id?: string;
  credential_id?: string;
  group_id?: string;
  model?: string;
  reason_code?: string;
  failed_only?: boolean;
  /** 'only' probes and model tests, 'hide' them, or both when unset. */
  probe?: string;
}

/** The gateway's refusals by limits and budgets (429 / 503 before routing). */
export const LIMIT_REFUSALS = LIMIT_REASON_CODES.filter((row) => row.kind === 'refusal').map((row) => row.code);

/** A request log's reason code: orange for a refusal by limits (with the words), its meaning on hover. */
export function LogReason({ code }: { code: string | null | undefined }) {
  const { t, i18n } = useTranslation();
  if (!code) return null;
  const known = reasonCode(code, i18n.language);
  const limit = LIMIT_REFUSALS.includes(code);
  const tag = (
    <Tag color={limit ? 'orange' : 'red'} data-testid="log-reason">
      {limit ? `${t('requests.refusedByLimits')}: ${code}` : code}
    </Tag>
  );
  return known ? <Tooltip title={known.meaning}>{tag}</Tooltip> : tag;
}

/** The request-log query of a filter form: time range as from (inclusive) / to (exclusive). */
export function filterParams(filters: LogFilters) {
  return {
    from: filters.range?.[0]?.toISOString(),
    to: filters.range?.[1]?.toISOString(),
    access_key_id: filters.access_key_id,
    team_id: filters.team_id,
    credential_id: filters.credential_id,
    group_id: filters.group_id,
    model: filters.model?.trim(),
    reason_code: filters.reason_code,
    success: filters.failed_only ? false : undefined,
    probe: probeParam(filters.probe),
  };
}

export function logQuery(filters: LogFilters, cursor?: string | null, limit = 50): string {
  return query({ ...filterParams(filters), limit, cursor: cursor ?? undefined });
}

/** The names behind the ids of logs and usage; only the lists the caller's role may read are asked for. */
export function useReferenceNames() {
  const me = useMe();
  const credentials = usePolling(
    () => ifReadable(me, '/credentials', () => api<CredentialView[]>('GET', '/credentials?archived=all'), []),
    30000,
    [me],
  );
  const groups = usePolling(() => ifReadable(me, '/groups', () => api<GroupView[]>('GET', '/groups'), []), 30000, [me]);
  const keys = usePolling(() => ifReadable(me, '/access-keys', () => api<AccessKeyView[]>('GET', '/access-keys'), []), 30000, [me]);
  const teams = usePolling(() => readableTeams(me), 30000, [me]);
  return {
    seesPool: mayOffer(me, 'GET', '/credentials'),
    teams: teams.data ?? [],
    teamName: new Map((teams.data ?? []).map((team) => [team.id, team.name])),
    credentials: credentials.data ?? [],
    groups: groups.data ?? [],
    keys: keys.data ?? [],
    credentialName: new Map((credentials.data ?? []).map((c) => [c.id, c.name])),
    groupName: new Map((groups.data ?? []).map((g) => [g.id, g.name])),
    keyName: new Map((keys.data ?? []).map((k) => [k.id, k.name])),
  };
}

export function FilterForm({ onChange, extra }: { onChange: (filters: LogFilters) => void; extra?: React.ReactNode }) {
  const { t, i18n } = useTranslation();
  const refs = useReferenceNames();
  return (
    <Form layout="inline" onValuesChange={(_, all) => onChange(all as LogFilters)} style={{ marginBottom: 16, rowGap: 8 }}>
      <Form.Item name="range" label={t('requests.range')}>
        <DatePicker.RangePicker showTime allowEmpty={[true, true]} />
      </Form.Item>
      <Form.Item name="access_key_id" label={t('col.accessKey')}>
        <Select allowClear style={{ width: 160 }} options={refs.keys.map((k) => ({ value: k.id, label: k.name }))} />
      </Form.Item>
      <Form.Item name="team_id" label={t('col.team')}>
        <Select allowClear style={{ width: 160 }} options={refs.teams.map((team) => ({ value: team.id, label: team.name }))} />
      </Form.Item>
      {refs.seesPool && (
        <>
          <Form.Item name="credential_id" label={t('col.credential')}>
            <Select allowClear style={{ width: 160 }} options={refs.credentials.map((c) => ({ value: c.id, label: c.name }))} />
          </Form.Item>
          <Form.Item name="group_id" label={t('col.group')}>
            <Select allowClear style={{ width: 160 }} options={refs.groups.map((g) => ({ value: g.id, label: g.name }))} />
          </Form.Item>
        </>
      )}
      <Form.Item name="model" label={t('col.model')}>
        <Input allowClear style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="reason_code" label={t('routeCheck.reasonCode')}>
        <Select
          allowClear
          showSearch
          style={{ width: 220 }}
          data-testid="filter-reason"
          options={[
            ...LIMIT_REFUSALS.map((code) => ({ value: code, label: `${code} · ${t('requests.refusedByLimits')}` })),
            ...allReasonCodes(i18n.language)
              .filter((row) => !LIMIT_REFUSALS.includes(row.code))
              .map((row) => ({ value: row.code, label: row.code })),
          ]}
        />
      </Form.Item>
      <Form.Item name="probe" label={t('requests.probeFilter')}>
        <Select
          allowClear
          style={{ width: 140 }}
          data-testid="filter-probe"
          placeholder={t('requests.probesAll')}
          options={[
            { value: 'hide', label: t('requests.probesHidden') },
            { value: 'only', label: t('requests.probesOnly') },
          ]}
        />
      </Form.Item>
      <Form.Item name="failed_only" valuePropName="checked">
        <Checkbox>{t('requests.failedOnly')}</Checkbox>
      </Form.Item>
      {extra}
    </Form>
  );
}

export function RequestLogsPage() {
  const { t } = useTranslation();
  const refs = useReferenceNames();
  const [filters, setFilters] = useState<LogFilters>({});
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1];
  const page = usePolling(() => api<Page<RequestLogView>>('GET', `/requests${logQuery(filters, cursor)}`), 5000, [filters, cursor]);
  const [detail, setDetail] = useState<RequestLogView | null>(null);

  return (
    <>
      <FilterForm
        onChange={(next) => {
          setFilters(next);
          setCursors([null]);
        }}
      />
      <Table<RequestLogView>
        rowKey="request_id"
        size="small"
        dataSource={page.data?.items ?? []}
        loading={page.data === undefined}
        pagination={false}
        onRow={(row) => ({ onClick: () => setDetail(row), style: { cursor: 'pointer' }, 'data-request-id': row.request_id }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('col.time'), render: (_, r) => new Date(r.occurred_at).toLocaleString() },
          { title: t('col.accessKey'), render: (_, r) => (r.access_key_id ? refs.keyName.get(r.access_key_id) ?? r.access_key_id : '') },
          {
            title: t('col.team'),
            render: (_, r) => {
              const teamId = (r as RequestLogView & { team_id?: string | null }).team_id;
              return teamId ? refs.teamName.get(teamId) ?? teamId : '';
            },
          },
          { title: t('col.group'), render: (_, r) => (r.group_id ? refs.groupName.get(r.group_id) ?? r.group_id : '') },
          { title: t('col.credential'), render: (_, r) => (r.credential_id ? refs.credentialName.get(r.credential_id) ?? r.credential_id : '') },
          { title: t('col.model'), render: (_, r) => `${r.requested_model ?? ''}${r.model_key && r.model_key !== r.requested_model ? ` → ${r.model_key}` : ''}` },
          {
            title: t('col.result'),
            render: (_, r) => (
              <Space size={4}>
                <Tag color={r.success ? 'green' : 'red'}>{r.success ? t('requests.success') : t('requests.failed')}</Tag>
                <Tag>{r.status}</Tag>
                <LogReason code={r.reason_code} />
                {r.probe && <Tag>{t('requests.probe')}</Tag>}
              </Space>
            ),
          },
          { title: 'ms', dataIndex: 'latency_ms' },
        ]}
      />
      <Space style={{ marginTop: 16 }}>
        <Button disabled={cursors.length <= 1} onClick={() => setCursors([null])}>
          {t('requests.first')}
        </Button>
        <Button disabled={!page.data?.next_cursor} onClick={() => setCursors([...cursors, page.data!.next_cursor!])}>
          {t('requests.next')}
        </Button>
      </Space>
      <Drawer open={detail !== null} onClose={() => setDetail(null)} title={t('requests.detail')} width={620}>
        {detail && <RequestDetail row={detail} names={refs} />}
      </Drawer>
    </>
  );
}

/** The fields of a request the detail lists, in order, with their translated labels (attempts.field.*). */
const DETAIL_FIELDS = [
  'request_id',
  'occurred_at',
  'protocol',
  'requested_model',
  'model_key',
  'attempts',
  'status',
  'reason_code',
  'latency_ms',
  'ttft_ms',
  'input_tokens',
  'output_tokens',
  'cost_micros',
  'stream',
  'client_disconnected',
  'probe',
] as const;

interface RequestLogDetail {
  request: RequestLogView;
  attempt_chain: AttemptStep[];
}

/** One request: its fields in words and its attempt chain as a timeline; upstream text is shown as text only. */
export function RequestDetail({ row, names }: { row: RequestLogView; names: ReturnType<typeof useReferenceNames> }) {
  const { t, i18n } = useTranslation();
  const detail = usePolling(() => api<RequestLogDetail>('GET', `/requests/${encodeURIComponent(row.request_id)}`), 0, [row.request_id]);
  const request = (detail.data?.request ?? row) as RequestLogView & Record<string, unknown>;
  const chain = detail.data?.attempt_chain ?? [];
  const numbers = attemptNumbers(chain);
  const value = (name: string) => {
    const v = request[name];
    if (v === null || v === undefined) return '';
    if (typeof v === 'boolean') return v ? '✓' : '✗';
    if (name === 'occurred_at') return new Date(String(v)).toLocaleString();
    return String(v);
  };
  return (
    <div data-testid="request-detail">
      <Descriptions column={1} bordered size="small">
        {DETAIL_FIELDS.map((name) => (
          <Descriptions.Item key={name} label={t(`attempts.field.${name}`)}>
            {value(name)}
          </Descriptions.Item>
        ))}
        {reasonCode(request.reason_code, i18n.language) && (
          <Descriptions.Item label={t('routeCheck.meaning')}>
            <span data-testid="log-reason-meaning">{reasonCode(request.reason_code, i18n.language)!.meaning}</span>
          </Descriptions.Item>
        )}
      </Descriptions>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('attempts.title')}
      </Typography.Title>
      {detail.error && <Alert type="error" showIcon message={detail.error.message} />}
      {detail.data && chain.length === 0 && <Typography.Text type="secondary">{t('attempts.none')}</Typography.Text>}
      {chain.length > 0 && (
        <Timeline
          data-testid="attempt-chain"
          items={chain.map((step, i) => ({
            key: i,
            color: decisionColor(step.decision),
            children:
              step.decision === 'omitted' ? (
                <Typography.Text type="secondary" data-testid="attempt-omitted">
                  {t('attempts.omitted', { count: step.omitted ?? 0 })}
                </Typography.Text>
              ) : (
                <div data-testid="attempt" data-decision={step.decision} data-status={step.status ?? ''}>
                  <Space size={4} wrap>
                    <Typography.Text strong>{t('attempts.number', { n: numbers[i] })}</Typography.Text>
                    <Tag color={decisionColor(step.decision)} data-testid="attempt-decision">
                      {decisionKey(step.decision) ? t(decisionKey(step.decision)!) : step.decision}
                    </Tag>
                    <Tag data-testid="attempt-status">
                      {t('attempts.status')}: {step.status ?? t('attempts.noStatus')}
                    </Tag>
                    <Tag>{step.latency_ms} ms</Tag>
                  </Space>
                  <div>
                    {t('attempts.credential')}: {step.credential_id ? names.credentialName.get(step.credential_id) ?? step.credential_id : ''}
                    {' · '}
                    {t('attempts.model')}: {step.model_key ?? ''}
                  </div>
                  {step.failure_kind && (
                    <div>
                      {t('attempts.kind')}: <Typography.Text code>{step.failure_kind}</Typography.Text>
                      {step.failure_scope && (
                        <>
                          {' · '}
                          {t('attempts.scope')}: {t(`attempts.scopes.${step.failure_scope}`, { defaultValue: step.failure_scope })}
                        </>
                      )}
                    </div>
                  )}
                  {step.error && (
                    <div>
                      {t('attempts.error')}:
                      {/* upstream content: rendered as text, never as markup */}
                      <pre data-testid="attempt-error" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', margin: '4px 0 0', fontSize: 12 }}>
                        {step.error}
                      </pre>
                    </div>
                  )}
                </div>
              ),
          }))}
        />
      )}
    </div>
  );
}
