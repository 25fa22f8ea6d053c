import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, InputNumber, message } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, api, type SettingsView } from '../api/client';
import { showFieldErrors } from './CredentialDrawer';

export function SettingsPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [stored, setStored] = useState<SettingsView | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = async () => {
    const settings = await api<SettingsView>('GET', '/settings');
    setStored(settings);
    form.setFieldsValue({ ...settings, model_prices: JSON.stringify(settings.model_prices ?? {}, null, 2) });
  };
  useEffect(() => {
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const save = async () => {
    setError(null);
    const values = await form.validateFields();
    let prices: unknown;
    try {
      prices = JSON.parse(values.model_prices || '{}');
    } catch {
      form.setFields([{ name: 'model_prices', errors: [t('settings.invalidJson')] }]);
      return;
    }
    // only what changed is sent: one bad field refuses the whole write
    const body: Record<string, unknown> = {};
    for (const name of ['blacklist_threshold', 'affinity_ttl_seconds', 'affinity_capacity'] as const) {
      if (stored && values[name] !== stored[name]) body[name] = values[name];
    }
    if (JSON.stringify(prices) !== JSON.stringify(stored?.model_prices ?? {})) body.model_prices = prices;
    try {
      await api('PATCH', '/settings', body);
      void message.success(t('saved'));
      await load();
    } catch (e) {
      showFieldErrors(form, e);
      setError(e instanceof ApiError ? `${e.code}: ${e.message}` : String(e));
    }
  };

  return (
    <Form form={form} layout="vertical" style={{ maxWidth: 560 }}>
      {error && <Alert type="error" message={error} style={{ marginBottom: 12 }} />}
      <Form.Item name="blacklist_threshold" label={t('settings.blacklistThreshold')}>
        <InputNumber />
      </Form.Item>
      <Form.Item name="affinity_ttl_seconds" label={t('settings.affinityTtl')}>
        <InputNumber />
      </Form.Item>
      <Form.Item name="affinity_capacity" label={t('settings.affinityCapacity')}>
        <InputNumber />
      </Form.Item>
      <Form.Item name="model_prices" label={t('settings.modelPrices')} extra={t('settings.modelPricesHelp')}>
        <Input.TextArea rows={8} style={{ fontFamily: 'monospace' }} />
      </Form.Item>
      <Button type="primary" onClick={save}>
        {t('save')}
      </Button>
    </Form>
  );
}
