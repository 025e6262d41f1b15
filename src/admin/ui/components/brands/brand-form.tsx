/** The brand editor: name, colors (a picker beside each), a logo with a preview or cleared; sent as multipart with upload progress. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { components } from '../../../../../generated/api-types.js';
import { ApiError, formatDetail, uploadWithProgress } from '../../api.js';
import { Checkbox, EditorActions, Field, Progress, TextInput, useAction } from '../common.js';

type Brand = components['schemas']['Brand'];

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
/** `#rgb` or `#rrggbb` as `#rrggbb` for the color picker; null when not a color. */
const pickerValue = (c: string) => {
  const t = c.trim();
  if (!HEX.test(t)) return null;
  return t.length === 4 ? `#${t[1]}${t[1]}${t[2]}${t[2]}${t[3]}${t[3]}`.toLowerCase() : t.toLowerCase();
};

function ColorField({ label, value, onValue, optional }: { label: string; value: string; onValue: (v: string) => void; optional?: boolean }) {
  const picker = pickerValue(value);
  return (
    <Field label={label} hint={optional ? '#RGB or #RRGGBB; blank for none' : '#RGB or #RRGGBB'}>
      <span class="color-field">
        <input
          type="color"
          class={picker ? '' : 'unset'}
          aria-label={`${label} picker`}
          value={picker ?? '#ffffff'}
          onInput={(e) => onValue((e.target as HTMLInputElement).value)}
        />
        <TextInput class="mono" value={value} onValue={onValue} placeholder={optional ? 'none' : '#ff5500'} aria-label={label} />
      </span>
    </Field>
  );
}

function BrandSwatch({ name, primary, secondary, logo }: { name: string; primary: string; secondary: string; logo: string | null }) {
  const p = pickerValue(primary) ?? '#cccccc';
  const s = pickerValue(secondary);
  return (
    <div class="brand-swatch" aria-label="Color preview" style={{ background: p, borderColor: s ?? p }}>
      {logo ? <img src={logo} alt="" /> : null}
      <span style={{ color: s ?? '#fff' }}>{name || 'Brand name'}</span>
    </div>
  );
}

/** Sends the brand form as multipart with upload progress; the API's error as an ApiError. */
async function sendBrand(url: string, method: 'POST' | 'PATCH', form: FormData, onProgress: (f: number) => void): Promise<Brand> {
  const res = await uploadWithProgress(url, form, onProgress, method);
  if (res.status >= 200 && res.status < 300) return res.body as Brand;
  throw new ApiError(res.status, formatDetail(res.body, res.status), res.body);
}

export function BrandForm({ brand, flash, onSaved, onClose }: { brand: Brand | null; flash: boolean; onSaved: (b: Brand) => void; onClose: () => void }) {
  const [name, setName] = useState(brand?.name ?? '');
  const [primary, setPrimary] = useState(brand?.primary_color ?? '#0b6e4f');
  const [secondary, setSecondary] = useState(brand?.secondary_color ?? '');
  const [logo, setLogo] = useState<File | null>(null);
  const [clearLogo, setClearLogo] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [saved, setSaved] = useState(flash);
  const logoPreview = useMemo(() => (logo ? URL.createObjectURL(logo) : null), [logo]);
  useEffect(() => () => void (logoPreview && URL.revokeObjectURL(logoPreview)), [logoPreview]);
  const save = useAction(async () => {
    setSaved(false);
    const form = new FormData();
    form.append('name', name);
    form.append('primary_color', primary);
    if (brand || secondary.trim()) form.append('secondary_color', secondary.trim());
    if (logo) form.append('logo', logo, logo.name);
    else if (brand && clearLogo) form.append('clear_logo', 'true');
    setProgress(0);
    try {
      const result = brand ? await sendBrand(`/api/brands/${brand.id}`, 'PATCH', form, setProgress) : await sendBrand('/api/brands', 'POST', form, setProgress);
      setSaved(true);
      setLogo(null);
      setClearLogo(false);
      onSaved(result);
    } finally {
      setProgress(null);
    }
  });
  const shownLogo = logoPreview ?? (clearLogo ? null : (brand?.logo_url ?? null));
  return (
    <form
      class="card brand-form"
      aria-label={brand ? `Edit brand ${brand.name}` : 'New brand'}
      onSubmit={(e) => {
        e.preventDefault();
        void save.act();
      }}
    >
      <h2>{brand ? `Edit "${brand.name}"` : 'New brand'}</h2>
      <div class="brand-form-grid">
        <div class="form-grid">
          <Field label="Name">
            <TextInput value={name} onValue={setName} required maxLength={120} />
          </Field>
          <ColorField label="Primary color" value={primary} onValue={setPrimary} />
          <ColorField label="Secondary color" value={secondary} onValue={setSecondary} optional />
          <Field label="Logo" hint="PNG, JPEG, GIF or WebP, at most 2 MiB; stored in the logo bucket">
            <input
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              onChange={(e) => {
                setLogo((e.target as HTMLInputElement).files?.[0] ?? null);
                setClearLogo(false);
              }}
            />
          </Field>
          {brand?.logo_filename ? (
            <div class="field">
              <span class="field-label">Current logo</span>
              <span>
                <code>{brand.logo_filename}</code>
              </span>
              <Checkbox
                checked={clearLogo}
                onValue={(v) => {
                  setClearLogo(v);
                  if (v) setLogo(null);
                }}
                label="Clear logo"
              />
            </div>
          ) : null}
        </div>
        <div class="brand-preview">
          <span class="field-label">Preview</span>
          <BrandSwatch name={name} primary={primary} secondary={secondary} logo={shownLogo} />
          {logo ? (
            <small class="hint">
              New logo: {logo.name} ({Math.ceil(logo.size / 1024)} KiB)
            </small>
          ) : null}
        </div>
      </div>
      {progress !== null ? (
        <Progress value={logo && progress < 1 ? progress : null} label={logo && progress < 1 ? `Uploading ${Math.round(progress * 100)}%` : 'Saving...'} />
      ) : null}
      <EditorActions busy={save.busy} saveLabel={brand ? 'Save brand' : 'Create brand'} saved={saved ? 'Saved.' : null} error={save.error}>
        <button type="button" class="secondary" onClick={onClose}>
          Close
        </button>
      </EditorActions>
    </form>
  );
}
