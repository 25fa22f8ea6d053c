import { useState } from 'react';
import { Button, Checkbox, DatePicker, Descriptions, Drawer, Form, Input, Select, Space, Table, Tag, Tooltip } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { api, listAll, query, type AccessKeyView, type CredentialView, type GroupView, type Page, type RequestLogView, type TeamView } from '../api/client';
import { usePolling } from '../hooks';
import { LIMIT_REASON_CODES, allReasonCodes, reasonCode } from '../reasonCodes';

export interface LogFilters {
  range?: [Dayjs | null, Dayjs | null] | null;
  access_key_id?: string;
  team_id?: string;
  credential_id?: string;
  group_id?: string;
  model?: string;
  reason_code?: string;
  failed_only?: boolean;
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
  };
}

export function logQuery(filters: LogFilters, cursor?: string | null, limit = 50): string {
  return query({ ...filterParams(filters), limit, cursor: cursor ?? undefined });
}

export function useReferenceNames() {
  const credentials = usePolling(() => api<CredentialView[]>('GET', '/credentials?archived=all'), 30000);
  const groups = usePolling(() => api<GroupView[]>('GET', '/groups'), 30000);
  const keys = usePolling(() => api<AccessKeyView[]>('GET', '/access-keys'), 30000);
  const teams = usePolling(() => listAll<TeamView>('/teams?limit=500'), 30000);
  return {
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
      <Form.Item name="credential_id" label={t('col.credential')}>
        <Select allowClear style={{ width: 160 }} options={refs.credentials.map((c) => ({ value: c.id, label: c.name }))} />
      </Form.Item>
      <Form.Item name="group_id" label={t('col.group')}>
        <Select allowClear style={{ width: 160 }} options={refs.groups.map((g) => ({ value: g.id, label: g.name }))} />
      </Form.Item>
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
      <Form.Item name="failed_only" valuePropName="checked">
        <Checkbox>{t('requests.failedOnly')}</Checkbox>
      </Form.Item>
      {extra}
    </Form>
  );
}

export function RequestLogsPage() {
  const { t, i18n } = useTranslation();
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
        onRow={(row) => ({ onClick: () => setDetail(row), style: { cursor: 'pointer' } })}
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
      <Drawer open={detail !== null} onClose={() => setDetail(null)} title={t('requests.detail')} width={560}>
        {detail && (
          <Descriptions column={1} bordered size="small">
            {Object.entries(detail).map(([name, value]) => (
              <Descriptions.Item key={name} label={name}>
                {value === null || value === undefined ? '' : String(value)}
              </Descriptions.Item>
            ))}
            {reasonCode(detail.reason_code, i18n.language) && (
              <Descriptions.Item label={t('routeCheck.meaning')}>
                <span data-testid="log-reason-meaning">{reasonCode(detail.reason_code, i18n.language)!.meaning}</span>
              </Descriptions.Item>
            )}
          </Descriptions>
        )}
      </Drawer>
    </>
  );
}
