// Ghostfolio's import validation, re-declared for tests from ghostfolio/ghostfolio@c542997d
// (AGPL-3.0; the validation rules are restated, not copied): the DTOs its `POST /api/v1/import`
// validates with Nest's ValidationPipe ({ whitelist, forbidNonWhitelisted, transform }:
// apps/api/src/main.ts) — ImportDataDto (apps/api/src/app/import/import-data.dto.ts),
// CreateOrderDto, CreateAccountDto, CreateAccountWithBalancesDto, CreateAssetProfileDto,
// CreateAssetProfileWithMarketDataDto, CreatePlatformDto, CreateTagDto, CountryDto, SectorDto
// (libs/common/src/lib/dtos/), IsCurrencyCode and IsAfter1970 — and the symbol rule of its import
// service (apps/api/src/app/import/import.service.ts: a MANUAL activity's or asset profile's
// symbol must be a UUID or start with "GF_"). Decorators are applied as the functions they are
// (legacy property decorators: target prototype and property name), so no compiler flag is needed.
import 'reflect-metadata';
import { plainToInstance, Transform, Type } from 'class-transformer';
import {
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEnum,
  IsIn,
  IsISO8601,
  IsISO31661Alpha2,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  isISO4217CurrencyCode,
  isUUID,
  Max,
  Min,
  registerDecorator,
  Validate,
  ValidateIf,
  ValidateNested,
  type ValidationError,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
  validateSync,
} from 'class-validator';

const enumOf = <const T extends string>(...values: T[]) =>
  Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };
// prisma/schema.prisma
const AssetClass = enumOf(
  'ALTERNATIVE_INVESTMENT',
  'COMMODITY',
  'EQUITY',
  'FIXED_INCOME',
  'LIQUIDITY',
  'REAL_ESTATE',
);
const AssetSubClass = enumOf(
  'BOND',
  'CASH',
  'COLLECTIBLE',
  'COMMODITY',
  'CRYPTOCURRENCY',
  'ETF',
  'LOAN',
  'MUTUALFUND',
  'PRECIOUS_METAL',
  'PRIVATE_EQUITY',
  'STOCK',
);
const DataSource = enumOf(
  'ALPHA_VANTAGE',
  'COINGECKO',
  'EOD_HISTORICAL_DATA',
  'FINANCIAL_MODELING_PREP',
  'GHOSTFOLIO',
  'GOOGLE_SHEETS',
  'MANUAL',
  'RAPID_API',
  'YAHOO',
);
const Type_ = enumOf('BUY', 'DIVIDEND', 'FEE', 'INTEREST', 'LIABILITY', 'SELL');

/** libs/common/src/lib/config.ts DERIVED_CURRENCIES, and helper.ts isDerivedCurrency (USX). */
const DERIVED = new Set(['GBp', 'ILA', 'ZAc', 'USX']);

class IsExtendedCurrencyConstraint implements ValidatorConstraintInterface {
  validate(currency: string) {
    return (
      DERIVED.has(currency) ||
      (currency === currency?.toUpperCase() && isISO4217CurrencyCode(currency))
    );
  }
  defaultMessage() {
    return '$property must be a valid ISO4217 currency code';
  }
}
ValidatorConstraint({ async: false })(IsExtendedCurrencyConstraint);
function IsCurrencyCode(): PropertyDecorator {
  return (object, propertyName) =>
    registerDecorator({
      propertyName: String(propertyName),
      constraints: [],
      target: object.constructor,
      validator: IsExtendedCurrencyConstraint,
    });
}

class IsAfter1970Constraint implements ValidatorConstraintInterface {
  validate(aDate: unknown) {
    return new Date(String(aDate)).getTime() > 0;
  }
  defaultMessage() {
    return 'date must be after 1970';
  }
}
ValidatorConstraint({ name: 'isAfter1970' })(IsAfter1970Constraint);

const trim = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

type Decorator = PropertyDecorator;
function declare(target: { prototype: object }, rules: Record<string, Decorator[]>): void {
  for (const [property, decorators] of Object.entries(rules)) {
    for (const decorator of decorators) decorator(target.prototype, property);
  }
}

class CountryDto {}
declare(CountryDto, {
  code: [IsISO31661Alpha2()],
  weight: [IsNumber(), Max(1), Min(0)],
});
class SectorDto {}
declare(SectorDto, { name: [IsString()], weight: [IsNumber(), Max(1), Min(0)] });
class HoldingDto {}

class CreateOrderDto {}
declare(CreateOrderDto, {
  accountId: [IsOptional(), IsString()],
  assetClass: [IsEnum(AssetClass), IsOptional()],
  assetSubClass: [IsEnum(AssetSubClass), IsOptional()],
  comment: [IsOptional(), IsString(), trim],
  currency: [IsCurrencyCode()],
  customCurrency: [IsCurrencyCode(), IsOptional()],
  dataSource: [IsEnum(DataSource), IsOptional()],
  date: [IsISO8601(), Validate(IsAfter1970Constraint)],
  fee: [IsNumber(), Min(0)],
  quantity: [IsNumber(), Min(0)],
  symbol: [IsString()],
  tags: [ArrayUnique(), IsArray(), IsOptional(), IsString({ each: true })],
  type: [IsEnum(Type_)],
  unitPrice: [IsNumber(), Min(0)],
  updateAccountBalance: [IsBoolean(), IsOptional()],
});

class CreateAccountWithBalancesDto {}
declare(CreateAccountWithBalancesDto, {
  // CreateAccountDto
  balance: [IsNumber(), IsOptional()],
  comment: [IsOptional(), IsString(), trim],
  currency: [IsCurrencyCode()],
  id: [IsOptional(), IsString()],
  name: [IsString()],
  platformId: [IsString(), ValidateIf((_o, value) => value !== null)],
  tags: [ArrayUnique(), IsArray(), IsOptional(), IsString({ each: true })],
  // CreateAccountWithBalancesDto
  balances: [IsArray(), IsOptional()],
  isExcluded: [IsBoolean(), IsOptional()],
});

class CreateAssetProfileWithMarketDataDto {}
declare(CreateAssetProfileWithMarketDataDto, {
  // CreateAssetProfileDto
  assetClass: [IsEnum(AssetClass), IsOptional()],
  assetSubClass: [IsEnum(AssetSubClass), IsOptional()],
  comment: [IsOptional(), IsString()],
  countries: [IsArray(), IsOptional(), Type(() => CountryDto), ValidateNested({ each: true })],
  currency: [IsCurrencyCode()],
  cusip: [IsOptional(), IsString()],
  figi: [IsOptional(), IsString()],
  figiComposite: [IsOptional(), IsString()],
  figiShareClass: [IsOptional(), IsString()],
  holdings: [IsArray(), IsOptional(), Type(() => HoldingDto), ValidateNested({ each: true })],
  isActive: [IsBoolean(), IsOptional()],
  isin: [IsOptional(), IsString()],
  name: [IsOptional(), IsString()],
  sectors: [IsArray(), IsOptional(), Type(() => SectorDto), ValidateNested({ each: true })],
  symbol: [IsString()],
  url: [IsOptional(), IsUrl({ protocols: ['http', 'https'], require_protocol: true })],
  // CreateAssetProfileWithMarketDataDto: dataSource overridden to MANUAL only
  dataSource: [IsIn([DataSource.MANUAL], { message: "dataSource must be 'MANUAL'" })],
  marketData: [IsArray(), IsOptional()],
});

class CreatePlatformDto {}
declare(CreatePlatformDto, {
  id: [IsOptional(), IsString()],
  name: [IsString()],
  url: [IsUrl({ protocols: ['http', 'https'], require_protocol: true })],
});
class CreateTagDto {}
declare(CreateTagDto, {
  id: [IsOptional(), IsString()],
  name: [IsString()],
  userId: [IsOptional(), IsString()],
});

class ImportDataDto {}
declare(ImportDataDto, {
  accounts: [
    IsArray(),
    IsOptional(),
    Type(() => CreateAccountWithBalancesDto),
    ValidateNested({ each: true }),
  ],
  activities: [IsArray(), Type(() => CreateOrderDto), ValidateNested({ each: true })],
  assetProfiles: [
    IsArray(),
    IsOptional(),
    Type(() => CreateAssetProfileWithMarketDataDto),
    ValidateNested({ each: true }),
  ],
  platforms: [
    IsArray(),
    IsOptional(),
    Type(() => CreatePlatformDto),
    ValidateNested({ each: true }),
  ],
  tags: [IsArray(), IsOptional(), Type(() => CreateTagDto), ValidateNested({ each: true })],
});

function flatten(errors: readonly ValidationError[], path = ''): string[] {
  return errors.flatMap((e) => {
    const here = path ? `${path}.${e.property}` : e.property;
    return [
      ...Object.values(e.constraints ?? {}).map((m) => `${here}: ${m}`),
      ...flatten(e.children ?? [], here),
    ];
  });
}

const isValidCustomAssetProfileSymbol = (symbol: string) =>
  (typeof symbol === 'string' && symbol.startsWith('GF_')) || isUUID(symbol);

/**
 * What Ghostfolio answers to a JSON export file: its client's request (import-activities-dialog:
 * each activity's `id` deleted; `accounts`, `activities`, `assetProfiles`, `platforms`, `tags`
 * posted) checked by the ValidationPipe and by the import service's symbol rules. An empty list
 * means accepted.
 */
export function ghostfolioImportErrors(file: {
  accounts?: unknown[];
  activities?: Record<string, unknown>[];
  assetProfiles?: unknown[];
  platforms?: unknown[];
  tags?: unknown[];
}): string[] {
  const body = {
    accounts: file.accounts,
    activities: (file.activities ?? []).map(({ id: _id, ...activity }) => activity),
    assetProfiles: file.assetProfiles,
    platforms: file.platforms,
    tags: file.tags,
  };
  const instance = plainToInstance(ImportDataDto, body);
  const errors = flatten(
    validateSync(instance as object, { whitelist: true, forbidNonWhitelisted: true }),
  );
  const profiles = (body.assetProfiles ?? []) as { dataSource?: string; symbol?: string }[];
  profiles.forEach((p, i) => {
    if (p.dataSource === 'MANUAL' && !isValidCustomAssetProfileSymbol(p.symbol ?? '')) {
      errors.push(`assetProfiles.${i}.symbol ("${p.symbol}") must be a UUID or start with GF_`);
    }
  });
  body.activities.forEach((a, i) => {
    const symbol = String(a.symbol ?? '');
    if (a.dataSource === 'MANUAL' && !isValidCustomAssetProfileSymbol(symbol)) {
      errors.push(`activities.${i}.symbol ("${symbol}") must be a UUID or start with GF_`);
    }
    if (a.dataSource === 'MANUAL' && !profiles.some((p) => p.symbol === symbol)) {
      errors.push(`activities.${i}.symbol ("${symbol}") has no asset profile`);
    }
  });
  return errors;
}
