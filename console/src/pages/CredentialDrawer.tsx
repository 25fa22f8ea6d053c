import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Drawer,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Radio,
  Select,
  Space,
  Switch,
  Table,
  Tabs,
  Tag,
  Timeline,
  Typography,
  message,
  type FormInstance,
} from 'antd';
import { useTranslation } from 'react-i18next';
import {
  ApiError,
  api,
  modelPath,
  type CredentialLimits,
  type CredentialView,
  type CredentialWithAuth,
  type GroupView,
  type ModelView,
  type Page,
  type TimelineEntryView,
} from '../api/client';
import { fieldsForCode, modelDisplayName, modelsToClear, statusTag } from '../health';
import { useNow, usePolling } from '../hooks';
import { nameList } from '../batch';
import { describeCause, describeState, howItComesBack } from '../timelineWords';
import { boundsRule, clearChangedErrors, tabsWithErrors } from '../formErrors';
import { NO_CREDENTIAL_LIMITS, credentialLimitsFromForm, limitsToSend } from '../limits';
import { CredentialLimitsFields } from './LimitsFields';
import { secondsLeft } from './Credentials';
import { OAuthSection } from './OAuthSection';
import { useMay } from '../access';

const PLATFORMS = ['claude', 'codex', 'gemini', 'grok', 'openai'];

interface RecoveryForm {
  mode: 'off' | 'scheduled' | 'healthcheck';
  times?: string[];
  time_zone?: string;
  interval_minutes?: number;
}

interface CredentialForm {
  id?: string;
  name: string;
  platform: string;
  kind: string;
  base_url: string;
  secret?: string;
  model_mappings?: { from: string; to?: string }[];
  priority?: number;
  weight_mode: string;
  weight?: number;
  quota_remaining?: number | null;
  group_ids?: string[];
  enabled: boolean;
  in_pool: boolean;
  failure_policy: Record<string, number | boolean>;
  recovery: RecoveryForm;
  limits?: Partial<CredentialLimits>;
}

function toForm(view: CredentialWithAuth): CredentialForm {
  const recovery = (view.recovery ?? { mode: "off" }) as unknown as RecoveryForm;
  return {
    name: view.name,
    platform: view.platform,
    kind: view.kind,
    base_url: view.base_url,
    model_mappings: (view.model_mappings ?? []).map((mapping) => ({ from: mapping.from, to: mapping.to ?? '' })),
    priority: view.priority,
    weight_mode: view.weight_mode,
    weight: view.weight,
    quota_remaining: view.quota_remaining ?? null,
    group_ids: view.group_ids ?? [],
    enabled: view.enabled,
    in_pool: view.in_pool,
    failure_policy: { ...(view.failure_policy as unknown as Record<string, number | boolean>) },
    recovery: { ...recovery, mode: recovery.mode ?? 'off' },
    limits: view.limits ?? NO_CREDENTIAL_LIMITS,
  };
}

function recoveryBody(recovery: RecoveryForm) {
  if (recovery.mode === 'scheduled') {
    return { mode: 'scheduled', times: recovery.times ?? [], ...(recovery.time_zone ? { time_zone: recovery.time_zone } : {}) };
  }
  if (recovery.mode === 'healthcheck') return { mode: 'healthcheck', interval_minutes: recovery.interval_minutes };
  return { mode: 'off' };
}

/** Shows an API validation code under the fields it concerns; true when it could be placed. */
export function showFieldErrors(form: FormInstance, error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  const fields = fieldsForCode(error.code, error.message);
  if (fields.length === 0) return false;
  form.setFields(fields.map((name) => ({ name, errors: [`${error.code}: ${error.message}`] })));
  return true;
}

export function CredentialDrawer({
  credentialId,
  groups,
  onClose,
  onChanged,
}: {
  credentialId: string | null;
  groups: GroupView[];
  onClose: () => void;
  onChanged: (id?: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CredentialForm>();
  const creating = credentialId === null;
  const may = useMay();
  // a role that may not change the credential sees the drawer read-only: fields disabled, no actions
  const canSave = creating ? may('POST', '/credentials') : may('PATCH', '/credentials/{id}');
  const canRecover = may('POST', '/credentials/{id}/pause');
  const view = usePolling(
    () => (credentialId ? api<CredentialWithAuth>('GET', `/credentials/${encodeURIComponent(credentialId)}`) : Promise.resolve(undefined)),
    3000,
    [credentialId],
  );
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [activeTab, setActiveTab] = useState('basic');
  const [errorTabs, setErrorTabs] = useState<string[]>([]);
  /** Marks the tabs whose fields hold errors and shows the first of them (a hidden error is no error to the operator). */
  const revealErrors = () => {
    const tabs = tabsWithErrors(form.getFieldsError() as { name: (string | number)[]; errors: string[] }[]);
    setErrorTabs(tabs);
    if (tabs.length > 0 && !tabs.includes(activeTab as 'basic' | 'failure')) setActiveTab(tabs[0]);
  };

  useEffect(() => {
    if (creating) {
      form.setFieldsValue({
        platform: 'openai',
        kind: 'api',
        weight_mode: 'auto',
        priority: 0,
        enabled: true,
        in_pool: true,
        model_mappings: [],
        failure_policy: {
          retry_count: 2,
          retry_interval_ms: 200,
          semantic_error_threshold: 10,
          cooldown_enabled: true,
          cooldown_seconds: 10,
          error_status_enabled: true,
        },
        recovery: { mode: 'off' },
        limits: NO_CREDENTIAL_LIMITS,
      });
    } else if (view.data && loadedFor !== credentialId) {
      // the form is filled once per credential; polling keeps only the read-only parts live
      form.setFieldsValue(toForm(view.data));
      setLoadedFor(credentialId);
    }
  }, [creating, view.data, credentialId, loadedFor, form]);

  const save = async () => {
    setFormError(null);
    let values: CredentialForm;
    try {
      values = await form.validateFields();
    } catch {
      revealErrors();
      return;
    }
    const body: Record<string, unknown> = {
      name: values.name,
      platform: values.platform,
      kind: values.kind,
      base_url: values.base_url,
      model_mappings: (values.model_mappings ?? []).map((mapping) => ({ from: mapping.from, to: mapping.to ?? '' })),
      priority: values.priority ?? 0,
      weight_mode: values.weight_mode,
      quota_remaining: values.quota_remaining ?? null,
      group_ids: values.group_ids ?? [],
      enabled: values.enabled,
      in_pool: values.in_pool,
      failure_policy: values.failure_policy,
      recovery: recoveryBody(values.recovery ?? { mode: 'off' }),
    };
    if (values.weight_mode === 'manual') body.weight = values.weight;
    const limits = limitsToSend(credentialLimitsFromForm(values.limits), creating ? null : view.data?.limits, creating);
    if (limits) body.limits = limits;
    if (values.secret) body.secret = values.secret;
    if (creating && values.id) body.id = values.id;
    setSaving(true);
    try {
      const saved = creating
        ? await api<CredentialView>('POST', '/credentials', body)
        : await api<CredentialView>('PATCH', `/credentials/${encodeURIComponent(credentialId!)}`, body);
      form.setFieldValue('secret', undefined);
      void message.success(t('saved'));
      setLoadedFor(null);
      onChanged(saved.id);
      void view.reload();
    } catch (e) {
      if (!showFieldErrors(form, e)) {
        setFormError(e instanceof ApiError ? `${e.code}: ${e.message}` : (e as Error).message);
      } else if (e instanceof ApiError) {
        setFormError(`${e.code}: ${e.message}`);
        revealErrors();
      }
    } finally {
      setSaving(false);
    }
  };

  const account = async (action: 'pause' | 'resume' | 'restore') => {
    try {
      await api('POST', `/credentials/${encodeURIComponent(credentialId!)}/${action}`);
      void message.success(t(`done.${action}`, { name: view.data?.name ?? credentialId }));
      void view.reload();
      onChanged();
    } catch (e) {
      void message.error((e as Error).message);
    }
  };

  const current = view.data;
  const recoveryMode = Form.useWatch(['recovery', 'mode'], form);
  const weightMode = Form.useWatch('weight_mode', form);
  const cooldownEnabled = Form.useWatch(['failure_policy', 'cooldown_enabled'], form);
  const kind = Form.useWatch('kind', form);

  const basicTab = (
    <>
      {creating && (
        <Form.Item name="id" label="id">
          <Input placeholder="optional" />
        </Form.Item>
      )}
      <Form.Item htmlFor="credential-name-input" name="name" label={t('col.name')} rules={[{ required: true }]}>
        <Input id="credential-name-input" />
      </Form.Item>
      <Space size="large" wrap>
        <Form.Item name="platform" label={t('col.platform')}>
          <Select style={{ width: 140 }} options={PLATFORMS.map((p) => ({ value: p, label: p }))} />
        </Form.Item>
        <Form.Item name="kind" label={t('col.kind')}>
          <Select style={{ width: 140 }} options={['api', 'official'].map((k) => ({ value: k, label: k }))} />
        </Form.Item>
      </Space>
      <Form.Item htmlFor="credential-base-url" name="base_url" label={t('credential.baseUrl')} rules={[{ required: true }]}>
        <Input id="credential-base-url" />
      </Form.Item>
      <Form.Item htmlFor="credential-secret"
        name="secret"
        label={t('credential.secret')}
        extra={creating ? (kind === 'official' ? t('oauth.saveFirst') : t('credential.secretHelpNew')) : t('credential.secretHelpEdit')}
        rules={creating && kind !== 'official' ? [{ required: true }] : []}
      >
        <Input.Password id="credential-secret" autoComplete="new-password" visibilityToggle={false} />
      </Form.Item>
      {!creating && current && current.kind === 'official' && (
        <OAuthSection
          credentialId={credentialId!}
          kind={current.kind}
          status={current.status}
          oauth={current.oauth}
          onChanged={() => {
            void view.reload();
            onChanged();
          }}
        />
      )}
      <Typography.Title level={5}>{t('credential.mappings')}</Typography.Title>
      <Form.List name="model_mappings">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field) => (
              <Space key={field.key} align="baseline">
                <Form.Item name={[field.name, 'from']} rules={[{ required: true }]}>
                  <Input placeholder={t('credential.mappingFrom')} data-testid="mapping-from" />
                </Form.Item>
                <span>→</span>
                <Form.Item name={[field.name, 'to']}>
                  <Input placeholder={t('credential.mappingTo')} data-testid="mapping-to" />
                </Form.Item>
                <Button onClick={() => remove(field.name)}>−</Button>
              </Space>
            ))}
            <Button onClick={() => add({ from: '', to: '' })} data-testid="mapping-add">
              {t('credential.addMapping')}
            </Button>
          </>
        )}
      </Form.List>
      <Space size="large" wrap style={{ marginTop: 16 }}>
        <Form.Item name="priority" label={t('col.priority')} rules={[boundsRule('priority')]}>
          <InputNumber />
        </Form.Item>
        <Form.Item name="weight_mode" label={t('credential.weightMode')}>
          <Radio.Group
            options={[
              { value: 'auto', label: t('weightAuto') },
              { value: 'manual', label: t('weightManual') },
            ]}
          />
        </Form.Item>
        {weightMode === 'manual' && (
          <Form.Item htmlFor="credential-weight" name="weight" label={t('col.weight')} rules={[{ required: true }, boundsRule('weight')]}>
            <InputNumber id="credential-weight" data-testid="credential-weight" />
          </Form.Item>
        )}
        <Form.Item name="quota_remaining" label={t('credential.quota')}>
          <InputNumber min={0} />
        </Form.Item>
      </Space>
      <Form.Item name="group_ids" label={t('col.groups')}>
        <Select mode="multiple" options={groups.map((group) => ({ value: group.id, label: group.name }))} />
      </Form.Item>
      <CredentialLimitsFields />
      <Space size="large">
        <Form.Item name="enabled" label={t('col.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="in_pool" label={t('credential.inPool')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Space>
    </>
  );

  const failureTab = (
    <>
      <Card size="small" title={t('credential.failurePolicy')} style={{ marginBottom: 16 }}>
        <Space size="large" wrap>
          <Form.Item htmlFor="policy-retry-count" name={['failure_policy', 'retry_count']} rules={[boundsRule('failure_policy.retry_count')]} label={t('credential.retryCount')}>
            <InputNumber id="policy-retry-count" />
          </Form.Item>
          <Form.Item htmlFor="policy-retry-interval" name={['failure_policy', 'retry_interval_ms']} rules={[boundsRule('failure_policy.retry_interval_ms')]} label={t('credential.retryInterval')}>
            <InputNumber id="policy-retry-interval" />
          </Form.Item>
          <Form.Item htmlFor="policy-semantic-threshold" name={['failure_policy', 'semantic_error_threshold']} rules={[boundsRule('failure_policy.semantic_error_threshold')]} label={t('credential.semanticThreshold')}>
            <InputNumber id="policy-semantic-threshold" />
          </Form.Item>
        </Space>
        <Space size="large" wrap>
          <Form.Item
            name={['failure_policy', 'cooldown_enabled']}
            label={t('credential.cooldownEnabled')}
            valuePropName="checked"
          >
            <Switch />
          </Form.Item>
          <Form.Item htmlFor="policy-cooldown-seconds"
            name={['failure_policy', 'cooldown_seconds']}
            rules={cooldownEnabled === false ? [] : [boundsRule('failure_policy.cooldown_seconds')]}
            label={t('credential.cooldownSeconds')}>
            <InputNumber id="policy-cooldown-seconds" disabled={cooldownEnabled === false} />
          </Form.Item>
          <Form.Item
            name={['failure_policy', 'error_status_enabled']}
            label={t('credential.errorStatusEnabled')}
            valuePropName="checked"
          >
            <Switch />
          </Form.Item>
        </Space>
      </Card>
      <Card size="small" title={t('credential.recovery')} style={{ marginBottom: 16 }}>
        <Form.Item name={['recovery', 'mode']}>
          <Radio.Group
            data-testid="recovery-mode"
            options={[
              { value: 'off', label: t('credential.recoveryOff') },
              { value: 'scheduled', label: t('credential.recoveryScheduled') },
              { value: 'healthcheck', label: t('credential.recoveryHealthcheck') },
            ]}
          />
        </Form.Item>
        {recoveryMode === 'scheduled' && (
          <Space size="large" wrap>
            <Form.Item name={['recovery', 'times']} label={t('credential.recoveryTimes')}>
              <Select mode="tags" style={{ minWidth: 220 }} tokenSeparators={[',', ' ']} open={false} />
            </Form.Item>
            <Form.Item name={['recovery', 'time_zone']} label={t('credential.recoveryTimeZone')}>
              <Input style={{ width: 200 }} placeholder="Asia/Shanghai" />
            </Form.Item>
          </Space>
        )}
        {recoveryMode === 'healthcheck' && (
          <Form.Item name={['recovery', 'interval_minutes']} label={t('credential.recoveryInterval')}>
            <InputNumber />
          </Form.Item>
        )}
      </Card>
      {credentialId ? <ModelStatusSection credentialId={credentialId} /> : <Alert message={t('credential.saveFirst')} />}
    </>
  );

  return (
    <Drawer
      open
      width={860}
      onClose={onClose}
      destroyOnClose
      title={
        <Space>
          {creating ? t('credential.new') : canSave ? t('credential.edit') : t('view')}
          {current && <Tag data-testid="drawer-status">{statusTag(current.status, current.account?.transient_failure_count ?? 0, t)}</Tag>}
        </Space>
      }
      extra={
        <Space>
          {!creating && current && canRecover && (
            <>
              {current.status === 'paused' ? (
                <Button onClick={() => account('resume')} data-testid="account-resume">
                  {t('credential.resume')}
                </Button>
              ) : (
                <Popconfirm title={t('confirm.pause', { name: current.name })} onConfirm={() => account('pause')}>
                  <Button data-testid="account-pause">{t('credential.pause')}</Button>
                </Popconfirm>
              )}
              {['error', 'warning', 'revoked'].includes(current.status) && (
                <Button onClick={() => account('restore')} data-testid="account-restore">
                  {t('credential.restore')}
                </Button>
              )}
            </>
          )}
          {canSave && (
            <Button type="primary" onClick={save} loading={saving} data-testid="credential-save">
              {t('save')}
            </Button>
          )}
        </Space>
      }
    >
      {current && !current.config_json_valid && <Alert type="warning" message={t('credential.configInvalid')} />}
      {current && <AccountWhy credential={current} />}
      {formError && <Alert type="error" message={formError} style={{ marginBottom: 12 }} data-testid="form-error" />}
      {!canSave && <Alert type="info" message={t('readOnly')} style={{ marginBottom: 12 }} data-testid="read-only" />}
      <Form
        form={form}
        disabled={!canSave}
        layout="vertical"
        autoComplete="off"
        onValuesChange={(changed) => {
          clearChangedErrors(form, changed);
          if (formError) setFormError(null);
        }}
        // after every change and every validation (a rule may refuse the new value too): the marks follow the errors
        onFieldsChange={() => {
          if (errorTabs.length > 0) setErrorTabs(tabsWithErrors(form.getFieldsError() as { name: (string | number)[]; errors: string[] }[]));
        }}
      >
        <Tabs
          activeKey={activeTab}
          onChange={setActiveTab}
          items={[
            { key: 'basic', label: <TabLabel testId="tab-basic" text={t('credential.basic')} failed={errorTabs.includes('basic')} />, children: basicTab, forceRender: true },
            {
              key: 'failure',
              label: <TabLabel testId="tab-failure" text={t('credential.failureHandling')} failed={errorTabs.includes('failure')} />,
              children: failureTab,
              forceRender: true,
            },
            ...(credentialId && may('POST', '/credentials/{id}/test')
              ? [{ key: 'test', label: <span data-testid="tab-test">{t('credential.test')}</span>, children: <ModelTest credentialId={credentialId} /> }]
              : []),
            ...(credentialId
              ? [
                  {
                    key: 'timeline',
                    label: <span data-testid="tab-timeline">{t('credential.timeline')}</span>,
                    children: <HealthTimeline credentialId={credentialId} />,
                  },
                ]
              : []),
          ]}
        />
      </Form>
    </Drawer>
  );
}

/** Why the account is 异常 / revoked / warning / cooling: the failure's kind, message, when, and what brings it back. */
export function AccountWhy({ credential }: { credential: Pick<CredentialWithAuth, 'status' | 'account'> }) {
  const { t } = useTranslation();
  const back = howItComesBack(credential.status, t);
  if (!back) return null;
  const account = credential.account;
  return (
    <Alert
      type={credential.status === 'warning' || credential.status === 'cooling' ? 'warning' : 'error'}
      style={{ marginBottom: 12 }}
      data-testid="account-why"
      message={`${t('accountWhy.title')}: ${describeState(credential.status, t)}`}
      description={
        <div>
          {account?.last_failure_kind && (
            <div data-testid="account-why-kind">
              {t('accountWhy.kind')}: {t(`timeline.kind.${account.last_failure_kind}`, { defaultValue: account.last_failure_kind })}
            </div>
          )}
          {account?.last_failure_message && (
            <div data-testid="account-why-message" style={{ overflowWrap: 'anywhere' }}>
              {t('accountWhy.message')}: {account.last_failure_message}
            </div>
          )}
          {account?.cooldown_until && (
            <div>
              {t('accountWhy.cooldownUntil')}: {new Date(account.cooldown_until).toLocaleString()}
            </div>
          )}
          {account?.next_retry_at && (
            <div>
              {t('accountWhy.when')}: {new Date(account.next_retry_at).toLocaleString()}
            </div>
          )}
          <div data-testid="account-why-back">{back}</div>
        </div>
      }
    />
  );
}

/** A tab's name, marked (red, with a warning sign and an accessible note) while its fields hold errors. */
function TabLabel({ testId, text, failed }: { testId: string; text: string; failed: boolean }) {
  const { t } = useTranslation();
  return (
    <span>
      <span data-testid={testId}>{text}</span>
      {failed && (
        <span data-testid={`${testId}-error`} role="img" aria-label={t('tabHasErrors')} style={{ color: '#cf1322', marginLeft: 4 }}>
          ⚠
        </span>
      )}
    </span>
  );
}

/** 模型状态: every known model with 暂停/恢复 and 解除 per row, 全部解除 in the header. */
function ModelStatusSection({ credentialId }: { credentialId: string }) {
  const { t } = useTranslation();
  const models = usePolling(() => api<ModelView[]>('GET', `/credentials/${encodeURIComponent(credentialId)}/models`), 3000, [credentialId]);
  const now = useNow();
  const [busy, setBusy] = useState(false);
  const rows = models.data ?? [];
  const toClear = modelsToClear(rows);
  const canAct = useMay()('POST', '/credentials/{id}/models/{modelKey}/pause');

  const act = async (modelKey: string, action: 'pause' | 'resume' | 'clear') => {
    try {
      await api('POST', modelPath(credentialId, modelKey, action));
      void message.success(t(`done.model_${action}`, { model: modelKey }));
      void models.reload();
    } catch (e) {
      void message.error((e as Error).message);
    }
  };

  const clearAll = async () => {
    setBusy(true);
    try {
      const cleared: string[] = [];
      for (const key of toClear) {
        await api('POST', modelPath(credentialId, key, 'clear'));
        cleared.push(key);
      }
      void message.success(t('done.clearedAll', { count: cleared.length, models: nameList(cleared) }));
    } catch (e) {
      void message.error((e as Error).message);
    } finally {
      setBusy(false);
      void models.reload();
    }
  };

  return (
    <Card
      size="small"
      title={t('credential.modelStatus')}
      extra={
        canAct && (
        <Popconfirm
          title={t('confirm.clearAll', { count: toClear.length, models: nameList(toClear) })}
          disabled={toClear.length === 0}
          onConfirm={clearAll}
        >
          <Button size="small" disabled={toClear.length === 0} loading={busy} data-testid="models-clear-all">
            {t('credential.clearAll')}
          </Button>
        </Popconfirm>
        )
      }
      data-testid="model-status"
    >
      <Table<ModelView>
        rowKey="model_key"
        size="small"
        pagination={false}
        dataSource={rows}
        onRow={(row) => ({ 'data-model-key': row.model_key }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('col.model'),
            render: (_, row) => modelDisplayName(row.model_key, row.aliases, row.mapping_removed, t),
          },
          {
            title: t('col.status'),
            render: (_, row) => {
              const left = secondsLeft(row.remaining_cooldown_seconds, models.receivedAt, now);
              const reason = row.reason === 'cooling' && left === null ? null : row.reason;
              return reason ? (
                <Space size={4}>
                  <Tag color={reason === 'paused' ? 'default' : 'orange'} data-testid="model-reason">
                    {t(`reason.${reason}`)}
                  </Tag>
                  {left !== null && <span>{t('remaining', { count: left })}</span>}
                </Space>
              ) : (
                <Tag color="green" data-testid="model-reason">
                  {t('credential.available')}
                </Tag>
              );
            },
          },
          {
            title: t('col.failures'),
            render: (_, row) => (row.transient_failure_count > 0 ? t('errorsTag', { count: row.transient_failure_count }) : ''),
          },
          {
            title: t('lastFailure'),
            render: (_, row) => (
              <Typography.Text type="secondary" ellipsis={{ tooltip: row.last_failure_message }} style={{ maxWidth: 220 }}>
                {row.last_failure_message}
              </Typography.Text>
            ),
          },
          ...(canAct ? [{
            title: t('col.actions'),
            render: (_: unknown, row: ModelView) => (
              <Space>
                {row.status === 'paused' ? (
                  <Button size="small" onClick={() => act(row.model_key, 'resume')} data-testid="model-resume">
                    {t('credential.resumeModel')}
                  </Button>
                ) : (
                  <Button size="small" onClick={() => act(row.model_key, 'pause')} data-testid="model-pause">
                    {t('credential.pauseModel')}
                  </Button>
                )}
                <Button
                  size="small"
                  onClick={() => act(row.model_key, 'clear')}
                  disabled={!row.has_row || row.status === 'paused'}
                  data-testid="model-clear"
                >
                  {t('credential.clearModel')}
                </Button>
              </Space>
            ),
          }] : []),
        ]}
      />
    </Card>
  );
}

function ModelTest({ credentialId }: { credentialId: string }) {
  const { t } = useTranslation();
  const [model, setModel] = useState('');
  const [result, setResult] = useState<{ ok: boolean; body: unknown } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setResult(null);
    try {
      const body = await api<unknown>('POST', `/credentials/${encodeURIComponent(credentialId)}/test`, model ? { model } : {});
      const passed = (body as { success?: boolean; passed?: boolean } | null);
      setResult({ ok: passed?.success ?? passed?.passed ?? true, body });
    } catch (e) {
      setResult({ ok: false, body: e instanceof ApiError ? { code: e.code, message: e.message } : String(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        <Input placeholder={t('credential.testModel')} value={model} onChange={(e) => setModel(e.target.value)} style={{ width: 300 }} />
        <Button onClick={run} loading={busy} data-testid="model-test-run">
          {t('credential.runTest')}
        </Button>
      </Space>
      {result && (
        <Alert
          type={result.ok ? 'success' : 'error'}
          message={result.ok ? t('credential.testPassed') : t('credential.testFailed')}
          description={<pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{JSON.stringify(result.body, null, 2)}</pre>}
          data-testid="model-test-result"
        />
      )}
    </Space>
  );
}

function HealthTimeline({ credentialId }: { credentialId: string }) {
  const { t } = useTranslation();
  const timeline = usePolling(
    () => api<Page<TimelineEntryView>>('GET', `/credentials/${encodeURIComponent(credentialId)}/timeline?limit=100`),
    5000,
    [credentialId],
  );
  const items = timeline.data?.items ?? [];
  if (items.length === 0) return <Typography.Text type="secondary">{t('credential.timelineEmpty')}</Typography.Text>;
  return (
    <Timeline
      data-testid="timeline"
      items={items.map((entry) => ({
        key: entry.id,
        color: entry.to === 'ok' || entry.to === 'available' ? 'green' : 'orange',
        children: (
          <div>
            <Typography.Text strong>
              {new Date(entry.occurred_at).toLocaleString()} · {entry.model_key ?? t('credential.account')}
            </Typography.Text>
            <div data-testid="timeline-states">
              {t('credential.entered')}: {describeState(entry.from, t)} → {describeState(entry.to, t)}
            </div>
            <div data-testid="timeline-cause" title={entry.cause ?? undefined}>
              {t('credential.why')}: {describeCause(entry.cause, t)}
            </div>
            {entry.until && (
              <div>
                {t('credential.until')}: {new Date(entry.until).toLocaleString()}
              </div>
            )}
            {entry.detail && <Typography.Text type="secondary">{entry.detail}</Typography.Text>}
          </div>
        ),
      }))}
    />
  );
}
